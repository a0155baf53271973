package workspace

import (
	"bytes"
	"path"
	"strings"
)

// Language returns the editor language id (Monaco's ids) for a file name or
// path, by exact base name first (Dockerfile, Makefile, …) and then by
// extension, case-insensitively. Unknown files are "plaintext".
func Language(name string) string {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	lower := strings.ToLower(base)
	if l, ok := languageByName[lower]; ok {
		return l
	}
	if strings.HasPrefix(lower, "dockerfile.") || strings.HasSuffix(lower, ".dockerfile") {
		return "dockerfile"
	}
	if strings.HasPrefix(lower, ".env") {
		return "dotenv"
	}
	if l, ok := languageByExt[strings.TrimPrefix(path.Ext(lower), ".")]; ok {
		return l
	}
	return "plaintext"
}

var languageByName = map[string]string{
	"dockerfile": "dockerfile", "containerfile": "dockerfile", "makefile": "makefile", "gnumakefile": "makefile",
	"cmakelists.txt": "cmake", "go.mod": "go.mod", "go.sum": "go.sum", "gemfile": "ruby", "rakefile": "ruby",
	"jenkinsfile": "groovy", "vagrantfile": "ruby", ".gitignore": "ignore", ".dockerignore": "ignore",
	".npmignore": "ignore", ".bashrc": "shell", ".zshrc": "shell", ".profile": "shell",
	".editorconfig": "ini", "license": "plaintext", "procfile": "yaml",
}

var languageByExt = map[string]string{
	"ts": "typescript", "tsx": "typescript", "mts": "typescript", "cts": "typescript",
	"js": "javascript", "jsx": "javascript", "mjs": "javascript", "cjs": "javascript",
	"json": "json", "jsonc": "json", "json5": "json", "map": "json",
	"md": "markdown", "markdown": "markdown", "mdx": "mdx",
	"html": "html", "htm": "html", "xhtml": "html", "vue": "vue", "svelte": "svelte", "astro": "astro",
	"css": "css", "scss": "scss", "sass": "scss", "less": "less",
	"py": "python", "pyi": "python", "pyw": "python", "ipynb": "json",
	"go": "go", "rs": "rust", "java": "java", "kt": "kotlin", "kts": "kotlin", "scala": "scala", "groovy": "groovy",
	"c": "c", "h": "c", "cc": "cpp", "cpp": "cpp", "cxx": "cpp", "hpp": "cpp", "hh": "cpp", "hxx": "cpp",
	"cs": "csharp", "fs": "fsharp", "fsx": "fsharp", "vb": "vb", "swift": "swift", "m": "objective-c", "mm": "objective-cpp",
	"rb": "ruby", "erb": "ruby", "php": "php", "pl": "perl", "pm": "perl", "lua": "lua", "r": "r", "jl": "julia",
	"dart": "dart", "ex": "elixir", "exs": "elixir", "erl": "erlang", "hrl": "erlang", "clj": "clojure",
	"cljs": "clojure", "hs": "haskell", "elm": "elm", "ml": "ocaml", "mli": "ocaml", "zig": "zig", "nim": "nim",
	"sh": "shell", "bash": "shell", "zsh": "shell", "fish": "shell", "ps1": "powershell", "psm1": "powershell",
	"bat": "bat", "cmd": "bat",
	"sql": "sql", "graphql": "graphql", "gql": "graphql", "proto": "proto", "prisma": "prisma",
	"yaml": "yaml", "yml": "yaml", "toml": "toml", "ini": "ini", "cfg": "ini", "conf": "ini", "properties": "ini",
	"xml": "xml", "svg": "xml", "xsd": "xml", "xsl": "xml", "plist": "xml", "csproj": "xml",
	"tf": "hcl", "hcl": "hcl", "sol": "solidity", "tex": "latex", "rst": "restructuredtext",
	"txt": "plaintext", "log": "plaintext", "csv": "csv", "tsv": "tsv", "diff": "diff", "patch": "diff",
	"dockerfile": "dockerfile", "mk": "makefile", "cmake": "cmake", "gradle": "groovy",
}

// binaryExt lists extensions that are binary whatever their content (EC-12).
var binaryExt = map[string]bool{
	"png": true, "jpg": true, "jpeg": true, "gif": true, "bmp": true, "ico": true, "icns": true, "webp": true,
	"avif": true, "tif": true, "tiff": true, "psd": true, "heic": true,
	"pdf": true, "zip": true, "gz": true, "tgz": true, "bz2": true, "xz": true, "zst": true, "7z": true,
	"rar": true, "tar": true, "jar": true, "war": true, "whl": true,
	"exe": true, "dll": true, "so": true, "dylib": true, "a": true, "o": true, "obj": true, "lib": true,
	"bin": true, "class": true, "pyc": true, "pyo": true, "wasm": true, "node": true,
	"mp3": true, "mp4": true, "m4a": true, "wav": true, "ogg": true, "flac": true, "mov": true, "avi": true,
	"mkv": true, "webm": true, "woff": true, "woff2": true, "ttf": true, "otf": true, "eot": true,
	"sqlite": true, "sqlite3": true, "db": true, "dat": true, "pack": true, "idx": true,
}

// sniffLen is how much of a file is searched for a NUL byte.
const sniffLen = 8 << 10

// IsBinaryName reports whether the file name has a binary extension.
func IsBinaryName(name string) bool {
	return binaryExt[strings.TrimPrefix(strings.ToLower(path.Ext(name)), ".")]
}

// LooksBinary reports whether data holds a NUL byte in its first 8 KB, the
// test git and most editors use.
func LooksBinary(data []byte) bool {
	if len(data) > sniffLen {
		data = data[:sniffLen]
	}
	return bytes.IndexByte(data, 0) >= 0
}

func looksBinaryString(s string) bool {
	if len(s) > sniffLen {
		s = s[:sniffLen]
	}
	return strings.IndexByte(s, 0) >= 0
}

// LineCount counts lines the way editors number them: "" has 0 lines, "a"
// and "a\n" have 1, "a\nb" has 2.
func LineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
