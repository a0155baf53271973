//go:build !amd64 || purego

package memory

import "unsafe"

// axpy1 sets y[i] += a·x[i] for i < len(y), reading len(y) values from x.
func axpy1(a float32, x *float32, y []float32) {
	for i, v := range unsafe.Slice(x, len(y)) {
		y[i] += a * v
	}
}

// axpy8 adds the eight columns x[t] weighted a[t] to y, one column after
// the other, reading len(y) values from each.
func axpy8(a *[8]float32, x *[8]*float32, y []float32) {
	for t := range a {
		axpy1(a[t], x[t], y)
	}
}
