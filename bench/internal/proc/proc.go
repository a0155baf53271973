// Package proc reads another process's CPU time and memory from Linux's
// /proc, for the load tools under bench/ that report a server's cost per
// operation. On systems without /proc every reading is 0 and ok is false.
package proc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// CPU returns process pid's user + system CPU time so far, and whether it
// could be read.
func CPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	return ParseStat(string(b))
}

// ParseStat reads utime + stime (fields 14 and 15, in USER_HZ = 100 ticks
// per second) from a /proc/<pid>/stat line; ok is false if it is malformed.
func ParseStat(s string) (d time.Duration, ok bool) {
	i := strings.LastIndexByte(s, ')') // the command name may hold spaces and ')'
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(s[i+1:]) // fields from 3 (state) on
	if len(fields) < 13 {
		return 0, false
	}
	ut, err1 := strconv.ParseInt(fields[11], 10, 64)
	st, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil || ut < 0 || st < 0 {
		return 0, false
	}
	return time.Duration(ut+st) * time.Second / 100, true
}

// RSS returns process pid's resident set size in bytes (VmRSS), and
// whether it could be read.
func RSS(pid int) (int64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	return ParseStatusRSS(string(b))
}

// ParseStatusRSS reads the VmRSS line (in kB) of a /proc/<pid>/status
// text, in bytes; ok is false if there is none or it is malformed.
func ParseStatusRSS(s string) (int64, bool) {
	for line := range strings.Lines(s) {
		rest, found := strings.CutPrefix(line, "VmRSS:")
		if !found {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb < 0 {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}

// LoadAvg returns the machine's 1-minute load average, or -1 where
// /proc/loadavg cannot be read.
func LoadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}
