package redact

import (
	"strings"
	"testing"
)

// positives hold text with a secret and the exact redacted text.
var positives = []struct{ name, in, want string }{
	// private blocks (moved from learn/knowledge)
	{"private block", "use pnpm <private>my salary is 10</private> always", "use pnpm [REDACTED:private] always"},
	{"private multi-line", "a <Private>line one\nline two</PRIVATE> b", "a [REDACTED:private] b"},
	{"unclosed private", "keep <PRIVATE>all of this\nand this", "keep [REDACTED:private]"},
	{"two private blocks", "<private>x</private> and <private>y</private>", "[REDACTED:private] and [REDACTED:private]"},
	// PEM
	{"rsa private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----", "[REDACTED:private-key]"},
	{"pkcs8 private key", "key:\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN\nBgkqhkiG9w0=\n-----END PRIVATE KEY-----\nafter", "key:\n[REDACTED:private-key]\nafter"},
	{"openssh key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----", "[REDACTED:private-key]"},
	{"pgp key block", "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----", "[REDACTED:private-key]"},
	{"unterminated pem", "x -----BEGIN EC PRIVATE KEY-----\nMHcCAQEE", "x [REDACTED:private-key]"},
	// provider keys
	{"anthropic key", "key sk-ant-api03-AbC_dEf-1234567890", "key [REDACTED:anthropic-key]"},
	{"anthropic admin key", "ANTHROPIC_API_KEY is sk-ant-admin01-zzzzzzzzzzzz9", "ANTHROPIC_API_KEY is [REDACTED:anthropic-key]"},
	{"openai project key", "OPENAI sk-proj-abcdefghijklmnopqrstuv", "OPENAI [REDACTED:openai-key]"},
	{"openai legacy key", "use sk-4f9aB2cD3eF4gH5iJ6kL7mN8 now", "use [REDACTED:openai-key] now"},
	{"stripe live", "stripe sk_live_51H8abcdEFGH1234", "stripe [REDACTED:stripe-key]"},
	{"stripe restricted", "rk_live_abcdEFGH12345678", "[REDACTED:stripe-key]"},
	{"stripe webhook", "whsec_abcdefghijklmnop1234", "[REDACTED:stripe-key]"},
	{"github pat classic", "token ghp_abcdefghijklmnopqrstuvwxyz0123", "token [REDACTED:github-token]"},
	{"github oauth", "gho_16C7e42F292c6912E7710c838347Ae178B4a", "[REDACTED:github-token]"},
	{"github app", "(ghs_abcdefghijklmnopqrstu)", "([REDACTED:github-token])"},
	{"github fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghij", "[REDACTED:github-token]"},
	{"aws access key id", "AKIAIOSFODNN7EXAMPLE is the id", "[REDACTED:aws-access-key] is the id"},
	{"aws session key id", "id=ASIAY34FZKBOKMUTVV7A", "id=[REDACTED:aws-access-key]"},
	{"aws secret assignment", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [REDACTED:aws-secret-key]"},
	{"slack token", "xoxb-123456789012-abcdefghij", "[REDACTED:slack-token]"},
	{"google key", "AIzaSyA1234567890abcdefghijklmnopqrstu", "[REDACTED:google-key]"},
	{"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N", "[REDACTED:jwt]"},
	// headers and URLs
	{"bearer", "Authorization: Bearer abc.def.ghi123", "Authorization: Bearer [REDACTED:bearer-token]"},
	{"curl bearer", `curl -H "Authorization: bearer 0a1b2c3d4e5f" x`, `curl -H "Authorization: bearer [REDACTED:bearer-token]" x`},
	{"basic auth header", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [REDACTED:authorization]"},
	{"raw authorization", `"authorization": "9f8e7d6c5b4a39281706"`, `"authorization": "[REDACTED:authorization]"`},
	{"url credentials", "postgres://app:pa55@localhost/db", "postgres://app:[REDACTED:url-password]@localhost/db"},
	{"token word", "use token 8f3kd9s0a2lq", "use token [REDACTED:token]"},
	// assignments
	{"password assignment", "db password=hunter22 ok", "db password=[REDACTED:password] ok"},
	{"quoted one char", `password = "x"`, `password = "[REDACTED:password]"`},
	{"go short assignment", `dbPassword := "s3cr3t!"`, `dbPassword := "[REDACTED:password]"`},
	{"env upper", "PASSWORD=correcthorse", "PASSWORD=[REDACTED:password]"},
	{"export api key", "export API_KEY=abcd1234efgh", "export API_KEY=[REDACTED:api-key]"},
	{"yaml token", "api_token: tok_live_9x8y7z", "api_token: [REDACTED:token]"},
	{"json secret", `{"secret": "xyz12345"}`, `{"secret": "[REDACTED:secret]"}`},
	{"json api key", `{"api_key": "xyz12345"}`, `{"api_key": "[REDACTED:api-key]"}`},
	{"env style", "DB_PASSWORD: s3cr3t", "DB_PASSWORD: [REDACTED:password]"},
	{"db pass", "DB_PASS=mysql-root", "DB_PASS=[REDACTED:password]"},
	{"single quotes", "client_secret='a b c d'", "client_secret='[REDACTED:secret]'"},
	{"camel access token", "accessToken: 'zzz.yyy.xxx'", "accessToken: '[REDACTED:token]'"},
	{"header api key", "X-Api-Key: 0123456789abcdef", "X-Api-Key: [REDACTED:api-key]"},
	{"ini passphrase", "passphrase = correct horse", "passphrase = [REDACTED:password] horse"},
	{"query token", "https://x.io/cb?access_token=abcd1234&state=1", "https://x.io/cb?access_token=[REDACTED:token]&state=1"},
	{"escaped quote", `secret = "a\"bcd"`, `secret = "[REDACTED:secret]"`},
	// plain language
	{"plain password", "the password is hunter2", "the password is [REDACTED:password]"},
	{"plain token", "my token is abc123.", "my token is [REDACTED:token]."},
	{"plain word password", "The password is swordfish", "The password is [REDACTED:password]"},
	{"plain for", "the password for the db is Tr0ub4dor&3", "the password for the db is [REDACTED:password]"},
	{"plain quoted secret", `the secret is "open sesame"`, `the secret is "[REDACTED:secret]"`},
	{"plain api key", "My API key is k-9921-zz", "My API key is [REDACTED:api-key]"},
	{"plain now", "the password is now 12345678", "the password is now [REDACTED:password]"},
	{"long name", strings.Repeat("a", 2000) + "_password=hunter22", strings.Repeat("a", 2000) + "_password=[REDACTED:password]"},
	{"label with credential", "Token: abc123def is the one", "Token: [REDACTED:token] is the one"},
	{"json key after a value", `APIKEY= "api_key": "zq8vn3kd7"`, `APIKEY= "api_key": "[REDACTED:api-key]"`},
	{"value before an operator", `"api_key": "zq8vn3kd7" =`, `"api_key": "[REDACTED:api-key]" =`},
	{"several", "a sk-ant-xxxxxxxxxxxx and password=qwerty99", "a [REDACTED:anthropic-key] and password=[REDACTED:password]"},
}

// negatives must come back unchanged.
var negatives = []struct{ name, in string }{
	{"plain text", "We always run tests before pushing"},
	{"reset password field", "reset the password field when the form closes"},
	{"token bucket", "the token bucket algorithm limits the rate"},
	{"secret sauce", "the secret sauce is good tests"},
	{"task-list", "see the task-list and the desk-top app"},
	{"sk-learn", "install sk-learn first"},
	{"sk word", "the sk-dimension-reduction-helpers package"},
	{"short id", "id abc123"},
	{"uuid", "session 0193a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b"},
	{"git sha", "commit 4919cf1c2a9e8b7d6f5e4d3c2b1a09876543210f"},
	{"empty password", `password: ""`},
	{"empty env", "API_KEY="},
	{"empty yaml", "password:\n  next: value"},
	{"variable name", "the password variable holds user input"},
	{"compare empty", `if password == "" { return errEmpty }`},
	{"not equal", `if token != nil {`},
	{"getter", "token := getToken()"},
	{"getenv", `token := os.Getenv("GITHUB_TOKEN")`},
	{"form value", `password := r.FormValue("password")`},
	{"field access", "password = user.password"},
	{"this access", "this.apiKey = config.apiKey;"},
	{"process env", "const key = process.env.API_KEY"},
	{"ts type", "password: string;"},
	{"python type", `password: str = ""`},
	{"go struct", "Password string `json:\"password\"`"},
	{"sql column", "password_hash TEXT NOT NULL"},
	{"hash name", `password_hash = bcrypt(pw)`},
	{"max tokens", "max_tokens: 1024"},
	{"tokenizer", "tokenizer = load_tokenizer()"},
	{"primary key", "primary_key: id"},
	{"pwd is a dir", "PWD=/home/user/project"},
	{"placeholder env", "API_KEY=${API_KEY}"},
	{"placeholder angle", "password: <your-password>"},
	{"mask", `password = "********"`},
	{"template", `token: "{{ .Token }}"`},
	{"null", "secret: null"},
	{"bool", "show_password = true"},
	{"index", "secret = secrets[0]"},
	{"plain wrong", "the password is wrong"},
	{"plain required", "the password is required"},
	{"plain expired", "my token is expired."},
	{"plain stored", "the password is stored hashed"},
	{"plain secret prose", "the secret is to keep functions small"},
	{"plain token word", "the token is valid for one hour"},
	{"bearer prose", "Bearer authentication sends a token"},
	{"bearer short", "the bearer of bad news"},
	{"token prose", "token refreshing happens every hour"},
	{"url without password", "https://user@example.com/path"},
	{"url with port", "http://localhost:3000/login"},
	{"certificate", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"},
	{"public key", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"},
	{"akia in word", "AKIAsmall is not a key"},
	{"asia", "shipping to Asia and Europe"},
	{"jwt like", "eyJ is how a JWT starts"},
	{"marker", "password=[REDACTED:password]"},
	{"marker quoted", `"token": "[REDACTED:token]"`},
	{"github prefix short", "ghp_short"},
	{"key press", "key: Enter"},
	{"authorization prose", "Authorization: required for admins"},
	{"stripe publishable", "pk_live_abcdefghijkl1234"},
	{"private word", "a private method"},
	{"monkey", "monkey = 42"},
	{"label prose", "Password: must be at least 12 characters"},
	{"token label prose", "Token: expires after one hour"},
}

func TestStringPositives(t *testing.T) {
	for _, tt := range positives {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.want {
				t.Errorf("String(%q):\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestStringNegatives(t *testing.T) {
	for _, tt := range negatives {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.in {
				t.Errorf("String(%q) = %q, want it unchanged", tt.in, got)
			}
		})
	}
}

// TestTableSize keeps the tables as large as issue 11 asks.
func TestTableSize(t *testing.T) {
	if len(positives) < 40 || len(negatives) < 40 {
		t.Errorf("%d positive and %d negative cases, want at least 40 each", len(positives), len(negatives))
	}
}

func TestStringIdempotent(t *testing.T) {
	for _, tt := range positives {
		once := String(tt.in)
		if twice := String(once); twice != once {
			t.Errorf("String not idempotent on %q: %q then %q", tt.in, once, twice)
		}
	}
}

func TestStringLeavesNoMarkerlessSecret(t *testing.T) {
	for _, tt := range positives {
		if got := String(tt.in); !strings.Contains(got, MarkerPrefix) {
			t.Errorf("String(%q) = %q has no marker", tt.in, got)
		}
	}
}

func TestBlank(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"", true},
		{"  \n", true},
		{"[REDACTED:private]", true},
		{" [REDACTED:private]\n[REDACTED:jwt] ", true},
		{"[REDACTED:private] always", false},
		{"use pnpm", false},
		{"[REDACTED:private", false},
	}
	for _, tt := range tests {
		if got := Blank(tt.in); got != tt.want {
			t.Errorf("Blank(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if !Blank(String("<private>only this</private>")) {
		t.Error("a text that was all private is not blank once redacted")
	}
}
