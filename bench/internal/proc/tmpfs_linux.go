package proc

import "syscall"

// tmpfsMagic is the f_type statfs(2) reports for a tmpfs.
const tmpfsMagic = 0x01021994

// IsTmpfs reports whether dir is on a tmpfs.
func IsTmpfs(dir string) bool {
	var st syscall.Statfs_t
	return syscall.Statfs(dir, &st) == nil && st.Type == tmpfsMagic
}
