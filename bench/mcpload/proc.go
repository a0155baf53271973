package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// procCPU returns process pid's user + system CPU time from
// /proc/<pid>/stat, or 0 where there is no such file or it cannot be read.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	return parseProcStat(string(b))
}

// parseProcStat reads utime + stime (fields 14 and 15, in USER_HZ = 100
// ticks per second) from a /proc/<pid>/stat line; 0 if malformed.
func parseProcStat(s string) time.Duration {
	i := strings.LastIndexByte(s, ')') // the command name may hold spaces and ')'
	if i < 0 || i+2 > len(s) {
		return 0
	}
	fields := strings.Fields(s[i+1:]) // fields from 3 (state) on
	if len(fields) < 13 {
		return 0
	}
	ut, err1 := strconv.ParseInt(fields[11], 10, 64)
	st, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil || ut < 0 || st < 0 {
		return 0
	}
	return time.Duration(ut+st) * time.Second / 100
}
