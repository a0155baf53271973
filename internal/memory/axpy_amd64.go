//go:build !purego

package memory

// axpy1 sets y[i] += a·x[i] for i < len(y), reading len(y) values from x,
// with SSE2 (axpy_amd64.s), rounding exactly like the Go loop.
//
//go:noescape
func axpy1(a float32, x *float32, y []float32)

// axpy8 adds the eight columns x[t] weighted a[t] to y, in the order t = 0..7
// (y[i] = (…(y[i] + a[0]·x[0][i]) + …) + a[7]·x[7][i]), reading len(y) values
// from each column, with SSE2: the same float32 as eight axpy1 calls.
//
//go:noescape
func axpy8(a *[8]float32, x *[8]*float32, y []float32)
