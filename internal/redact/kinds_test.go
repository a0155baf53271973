package redact

import (
	"strings"
	"testing"
)

// kinds are the secret shapes developers paste (issue 29), each in a
// sentence as it is pasted, with the secret that must not survive.
var kinds = []struct{ kind, in, secret string }{
	// the nine issue 29 found stored verbatim
	{"gitlab pat", "push with glpat-Xy9zAbCdEfGh12345678 please", "glpat-Xy9zAbCdEfGh12345678"},
	{"hugging face token", "HF token hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"},
	{"google oauth client secret", `"client_id": "x", "web": 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`, "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"},
	{"sendgrid key", "SENDGRID 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", "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"},
	{"azure storage key", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cQ==;EndpointSuffix=core.windows.net", "Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cQ=="},
	{"redis password only", "REDIS_URL=redis://:p4ssW0rdX@cache.internal:6379/0", "p4ssW0rdX"},
	{"mysql -p", "mysql -h db -u root -pS3cretPass42 shop", "S3cretPass42"},
	{"curl -u", "curl -u admin:Hunt3rTwo https://api.example.com/v1", "Hunt3rTwo"},
	{"plain passphrase", "my passphrase is correct-horse-battery-staple", "correct-horse-battery-staple"},
	// providers
	{"anthropic key", "key sk-ant-api03-AbC_dEf-1234567890abcd", "sk-ant-api03-AbC_dEf-1234567890abcd"},
	{"openai project key", "OPENAI sk-proj-abcdefghijklmnopqrstuv12", "sk-proj-abcdefghijklmnopqrstuv12"},
	{"openai legacy key", "use sk-4f9aB2cD3eF4gH5iJ6kL7mN8 now", "sk-4f9aB2cD3eF4gH5iJ6kL7mN8"},
	{"stripe secret key", "stripe sk_live_51H8abcdEFGH1234", "sk_live_51H8abcdEFGH1234"},
	{"stripe restricted key", "rk_live_51H8abcdEFGH12345678", "rk_live_51H8abcdEFGH12345678"},
	{"stripe test restricted key", "STRIPE_KEY is rk_test_4eC39HqLyjWDarjtT1zdp7dc", "rk_test_4eC39HqLyjWDarjtT1zdp7dc"},
	{"stripe webhook secret", "whsec_abcdefghijklmnop1234", "whsec_abcdefghijklmnop1234"},
	{"github classic pat", "token ghp_abcdefghijklmnopqrstuvwxyz0123", "ghp_abcdefghijklmnopqrstuvwxyz0123"},
	{"github fine-grained pat", "github_pat_11ABCDEFG0123456789_abcdefghij", "github_pat_11ABCDEFG0123456789_abcdefghij"},
	{"github app token", "(ghs_abcdefghijklmnopqrstu)", "ghs_abcdefghijklmnopqrstu"},
	{"aws access key id", "AKIAIOSFODNN7EXAMPLE is the id", "AKIAIOSFODNN7EXAMPLE"},
	{"aws secret key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
	{"slack bot token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"},
	{"slack user token", "SLACK xoxp-123456789012-123456789012-123456789012-abcdef0123456789abcdef0123456789", "xoxp-123456789012-123456789012-123456789012-abcdef0123456789abcdef0123456789"},
	{"slack app token", "xapp-1-A0123456789-1234567890123-abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789", "xapp-1-A0123456789-1234567890123-abcdef"},
	{"slack webhook", "post to https://hooks.slack.com/services/T0123ABCD/B0456EFGH/AbCdEfGhIjKlMnOpQrStUvWx", "AbCdEfGhIjKlMnOpQrStUvWx"},
	{"google api key", "AIzaSyA1234567890abcdefghijklmnopqrstu", "AIzaSyA1234567890abcdefghijklmnopqrstu"},
	{"npm token", "//registry.npmjs.org/ uses npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"},
	{"npmrc auth token", "//registry.npmjs.org/:_authToken=9f8e7d6c-5b4a-3928-1706-abcdefabcdef", "9f8e7d6c-5b4a-3928-1706-abcdefabcdef"},
	{"pypi token", "password = pypi-AgEIcHlwaS5vcmcCJGQ4ZmFkZWM0LWI5NmEtNGQ5ZC05ZmVhLTk0ZTU4N2Y0", "pypi-AgEIcHlwaS5vcmcCJGQ4ZmFkZWM0LWI5NmEtNGQ5ZC05ZmVhLTk0ZTU4N2Y0"},
	{"pypi token bare", "twine upload with pypi-AgEIcHlwaS5vcmcCJGQ4ZmFkZWM0LWI5NmEtNGQ5ZC05ZmVh", "pypi-AgEIcHlwaS5vcmcCJGQ4ZmFkZWM0LWI5NmEtNGQ5ZC05ZmVh"},
	{"digitalocean pat", "doctl auth init -t dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
	{"digitalocean oauth", "doo_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "doo_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
	{"twilio api secret", "TWILIO_API_SECRET=Zx8Qw7Er6Ty5Ui4Op3As2Df1Gh0Jk9Ll", "Zx8Qw7Er6Ty5Ui4Op3As2Df1Gh0Jk9Ll"},
	{"twilio url", "https://AC0123456789abcdef0123456789abcdef:f00dfeedf00dfeedf00dfeedf00dfeed@api.twilio.com/2010-04-01", "f00dfeedf00dfeedf00dfeedf00dfeed"},
	{"twilio auth token", "TWILIO_AUTH_TOKEN=0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"},
	{"databricks token", "host + dapi0123456789abcdef0123456789abcdef-2", "dapi0123456789abcdef0123456789abcdef"},
	{"shopify token", "shpat_0123456789abcdef0123456789abcdef", "shpat_0123456789abcdef0123456789abcdef"},
	{"postman key", "PMAK-0123456789abcdef01234567-0123456789abcdef0123456789abcdef01", "PMAK-0123456789abcdef01234567-0123456789abcdef0123456789abcdef01"},
	{"linear key", "lin_api_0123456789abcdefABCDEF0123456789abcdefAB", "lin_api_0123456789abcdefABCDEF0123456789abcdefAB"},
	{"age secret key", "AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ", "AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ"},
	{"telegram bot token", "bot 1234567890:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0", "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0"},
	// private keys and tokens
	{"rsa private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----", "MIIEpAIBAAKCAQEA7"},
	{"pkcs8 private key", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkq\n-----END PRIVATE KEY-----", "MIIEvQIBADANBgkq"},
	{"openssh private key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjE="},
	{"ec private key", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg\n-----END EC PRIVATE KEY-----", "MHcCAQEEIBkg"},
	{"pgp private key", "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF0123\n-----END PGP PRIVATE KEY BLOCK-----", "lQOYBF0123"},
	{"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N", "dozjgNryP4J3jVmNHl0w5N"},
	// connection strings
	{"postgres url", "postgres://app:pa55word@localhost:5432/db", "pa55word"},
	{"postgresql url", "DATABASE_URL=postgresql://admin:S3cr3t!x@db.prod:5432/main?sslmode=require", "S3cr3t!x"},
	{"mongodb url", "mongodb://root:M0ngoPass@mongo:27017/admin", "M0ngoPass"},
	{"mongodb srv url", "mongodb+srv://svc:Atl4sPw9@cluster0.ab1cd.mongodb.net/test", "Atl4sPw9"},
	{"amqp url", "amqp://guest:r4bbitPw@rabbit:5672/vhost", "r4bbitPw"},
	{"amqps url", "AMQP_URL=amqps://user:Cl0udAmqp@host.cloudamqp.com/v", "Cl0udAmqp"},
	{"redis url", "redis://default:R3disPass@redis:6379", "R3disPass"},
	{"rediss url", "rediss://:tLsP4ss9@cache.example.com:6380", "tLsP4ss9"},
	{"mysql url", "mysql://root:my5qlPw@127.0.0.1:3306/app", "my5qlPw"},
	{"postgres key value", "host=db port=5432 user=app password=Pg5ecret dbname=main", "Pg5ecret"},
	{"pgpassword env", "PGPASSWORD=Pg5ecret2 psql -h db", "Pg5ecret2"},
	// command lines and files
	{"netrc line", "machine api.example.com login octocat password N3trcPass", "N3trcPass"},
	{"netrc lines", "machine example.com\n  login me\n  password N3trcPass2\n", "N3trcPass2"},
	{"docker login -p", "docker login -u me -p D0ckerPw registry.example.com", "D0ckerPw"},
	{"docker login --password", "docker login --username me --password D0ckerPw2 ghcr.io", "D0ckerPw2"},
	{"mysql --password", "mysqldump --user=root --password=Dump3rPw app", "Dump3rPw"},
	{"export api key", "export X_API_KEY=abcd1234efgh5678", "abcd1234efgh5678"},
	{"export secret", "export CLIENT_SECRET='zq8vn3kd7'", "zq8vn3kd7"},
	{"env password", "DB_PASSWORD: s3cr3t-Pw", "s3cr3t-Pw"},
	{"json api key", `{"api_key": "xyz12345"}`, "xyz12345"},
	{"go password literal", `dbPassword := "s3cr3t!"`, "s3cr3t!"},
	{"bearer header", "Authorization: Bearer abc.def.ghi123", "abc.def.ghi123"},
	{"basic auth header", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA=="},
	{"url token", "https://x.io/cb?access_token=abcd1234&state=1", "abcd1234"},
	// plain language
	{"plain password", "the password is hunter2", "hunter2"},
	{"plain my password", "my password is Sunflower99", "Sunflower99"},
	{"plain passphrase quoted", `the passphrase is "open sesame now"`, "open sesame now"},
	{"plain pin", "my PIN is 4821", "4821"},
	{"plain pin code", "the pin code is 904417.", "904417"},
	{"plain token", "my token is abc123.", "abc123"},
	{"plain api key", "My API key is k-9921-zz", "k-9921-zz"},
	{"private block", "use pnpm <private>my salary is 10</private> always", "my salary is 10"},
}

// lookalikes resemble secrets and must come back unchanged.
var lookalikes = []string{
	"commit 4919cf1c2a9e8b7d6f5e4d3c2b1a09876543210f fixed it",
	"see 4919cf1 and a1b2c3d4",
	"session 0193a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b",
	`id = "550e8400-e29b-41d4-a716-446655440000"`,
	"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
	`payload = base64.b64decode("SGVsbG8sIFdvcmxkIQ==")`,
	"sha256(\"abc\") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	"AES test vector key 000102030405060708090a0b0c0d0e0f",
	"the token bucket algorithm limits the rate",
	"install sk-learn first, then scikit-learn",
	"password_reset_url = build_url(user)",
	"the password_reset_url is sent by mail",
	"/home/user/.ssh/id_rsa and ~/.aws/credentials",
	"src/auth/password.ts and internal/redact/token.go",
	"hf_hub_download(repo_id, filename)",
	"pip install hf_transfer",
	"SG.setOption(x) and SG.init()",
	"mysql -u root -p shop",
	"mysql -p",
	"curl -u admin https://api.example.com",
	"docker login -u me --password-stdin ghcr.io",
	"redis://localhost:6379/0",
	"postgres://localhost:5432/db",
	"git clone https://git@github.com/org/repo.git",
	"AccountName=devstoreaccount1;BlobEndpoint=http://127.0.0.1:10000",
	"npm_config_cache=/tmp/npm and npm install",
	"the dapi package and SKU 1234",
	"PIN the version in go.mod",
	"the PIN is required",
	"reset the password field when the form closes",
	"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 user@host",
	"-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkq\n-----END CERTIFICATE-----",
	"-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
	"image sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	"version v1.24.3 on 192.168.1.10:8080",
	"mail me@example.com at 2026-01-02T03:04:05Z",
	"the machine learning model has a login page",
	"glpat is GitLab's prefix for personal access tokens",
	"max_tokens: 1024",
	`if password == "" { return errEmpty }`,
}

func TestKinds(t *testing.T) {
	if len(kinds) < 60 || len(lookalikes) < 30 {
		t.Fatalf("%d kinds and %d look-alikes; issue 29 asks for at least 60 and 30", len(kinds), len(lookalikes))
	}
	for _, k := range kinds {
		got := String(k.in)
		if strings.Contains(got, k.secret) || !strings.Contains(got, MarkerPrefix) {
			t.Errorf("%s: %q\n  became %q", k.kind, k.in, got)
		}
		if again := String(got); again != got {
			t.Errorf("%s: not idempotent: %q, then %q", k.kind, got, again)
		}
	}
	for _, in := range lookalikes {
		if got := String(in); got != in {
			t.Errorf("look-alike altered: %q\n  became %q", in, got)
		}
	}
}
