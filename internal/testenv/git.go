package testenv

import "os"

// IsolateGit makes git, in this process and every command it starts, see
// a fresh machine: no global or system configuration, and none of the
// variables that set an author or committer or point at another
// repository. Call it from TestMain, before m.Run.
func IsolateGit() {
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_DIR", "GIT_WORK_TREE"} {
		os.Unsetenv(k)
	}
}
