package transcript

import (
	"strings"

	"github.com/tidwall/gjson"
)

// The oracle's JSON access: the walkers of the reader before the tape,
// with nothing recorded (they scan every value they step over).

// oldMembers calls fn with the key (unescaped, as gjson's ForEach gives it)
// and the raw value of each member of the JSON object obj, in order, until
// fn returns false. It does nothing when obj is not an object.
func oldMembers(obj string, fn func(key, val string) bool) {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	i++
	for {
		i = skipWS(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return
		}
		kEnd := skipString(obj, i)
		k := obj[i+1 : kEnd-1]
		if strings.IndexByte(k, '\\') >= 0 {
			k = gjson.Parse(obj[i:kEnd]).Str
		}
		i = skipWS(obj, kEnd)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = skipWS(obj, i+1)
		vEnd := skipValue(obj, i)
		if !fn(k, obj[i:vEnd]) {
			return
		}
		i = skipWS(obj, vEnd)
		if i >= len(obj) || obj[i] != ',' {
			return
		}
		i++
	}
}

// oldGetField is gjson.Get(obj, key) for a plain key (no path syntax): the
// first member named key, or the zero Result.
func oldGetField(obj, key string) gjson.Result {
	var out gjson.Result
	oldMembers(obj, func(k, v string) bool {
		if k != key {
			return true
		}
		out = gjson.Parse(v)
		return false
	})
	return out
}

// oldElements calls fn with each element of the JSON array arr, as gjson's
// ForEach would give it, until fn returns false. When arr is not an
// array, gjson's ForEach itself runs (an object's members, a scalar once).
func oldElements(arr string, fn func(v gjson.Result) bool) {
	i := skipWS(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		gjson.Parse(arr).ForEach(func(_, v gjson.Result) bool { return fn(v) })
		return
	}
	i++
	for {
		i = skipWS(arr, i)
		if i >= len(arr) || arr[i] == ']' {
			return
		}
		end := skipValue(arr, i)
		if !fn(gjson.Parse(arr[i:end])) {
			return
		}
		i = skipWS(arr, end)
		if i >= len(arr) || arr[i] != ',' {
			return
		}
		i++
	}
}

// oldRawField is the raw lookup of a member, keys compared as written.
func oldRawField(obj, key string) string {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return ""
	}
	i++
	for {
		i = skipWS(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return ""
		}
		kEnd := skipString(obj, i)
		k := obj[i+1 : kEnd-1]
		i = skipWS(obj, kEnd)
		if i >= len(obj) || obj[i] != ':' {
			return ""
		}
		i = skipWS(obj, i+1)
		vEnd := skipValue(obj, i)
		if k == key {
			return obj[i:vEnd]
		}
		i = skipWS(obj, vEnd)
		if i >= len(obj) || obj[i] != ',' {
			return ""
		}
		i++
	}
}
