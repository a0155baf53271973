//go:build !purego

#include "textflag.h"

// The kernels add a·x to y lane by lane with MULPS then ADDPS (never a fused
// multiply-add), which rounds exactly like the Go loop y[i] += a*x[i]: each
// row's sum is the same float32, column after column, as the scalar code.

// func axpy1(a float32, x *float32, y []float32)
TEXT ·axpy1(SB), NOSPLIT, $0-40
	MOVSS a+0(FP), X8
	SHUFPS $0, X8, X8
	MOVQ x+8(FP), SI
	MOVQ y_base+16(FP), DI
	MOVQ y_len+24(FP), CX
	XORQ AX, AX
	MOVQ CX, DX
	ANDQ $-8, DX

loop8:
	CMPQ AX, DX
	JGE tail
	MOVUPS (SI)(AX*4), X1
	MOVUPS 16(SI)(AX*4), X2
	MULPS X8, X1
	MULPS X8, X2
	MOVUPS (DI)(AX*4), X3
	MOVUPS 16(DI)(AX*4), X4
	ADDPS X1, X3
	ADDPS X2, X4
	MOVUPS X3, (DI)(AX*4)
	MOVUPS X4, 16(DI)(AX*4)
	ADDQ $8, AX
	JMP loop8

tail:
	CMPQ AX, CX
	JGE done
	MOVSS (SI)(AX*4), X1
	MULSS X8, X1
	MOVSS (DI)(AX*4), X3
	ADDSS X1, X3
	MOVSS X3, (DI)(AX*4)
	INCQ AX
	JMP tail

done:
	RET

// func axpy8(a *[8]float32, x *[8]*float32, y []float32)
TEXT ·axpy8(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), AX
	MOVSS 0(AX), X8
	SHUFPS $0, X8, X8
	MOVSS 4(AX), X9
	SHUFPS $0, X9, X9
	MOVSS 8(AX), X10
	SHUFPS $0, X10, X10
	MOVSS 12(AX), X11
	SHUFPS $0, X11, X11
	MOVSS 16(AX), X12
	SHUFPS $0, X12, X12
	MOVSS 20(AX), X13
	SHUFPS $0, X13, X13
	MOVSS 24(AX), X14
	SHUFPS $0, X14, X14
	MOVSS 28(AX), X15
	SHUFPS $0, X15, X15
	MOVQ x+8(FP), AX
	MOVQ 0(AX), SI
	MOVQ 8(AX), BX
	MOVQ 16(AX), R8
	MOVQ 24(AX), R9
	MOVQ 32(AX), R10
	MOVQ 40(AX), R11
	MOVQ 48(AX), R12
	MOVQ 56(AX), R13
	MOVQ y_base+16(FP), DI
	MOVQ y_len+24(FP), CX
	XORQ AX, AX
	MOVQ CX, DX
	ANDQ $-4, DX

loop4:
	CMPQ AX, DX
	JGE tail
	MOVUPS (DI)(AX*4), X0
	MOVUPS (SI)(AX*4), X1
	MULPS X8, X1
	ADDPS X1, X0
	MOVUPS (BX)(AX*4), X2
	MULPS X9, X2
	ADDPS X2, X0
	MOVUPS (R8)(AX*4), X3
	MULPS X10, X3
	ADDPS X3, X0
	MOVUPS (R9)(AX*4), X4
	MULPS X11, X4
	ADDPS X4, X0
	MOVUPS (R10)(AX*4), X1
	MULPS X12, X1
	ADDPS X1, X0
	MOVUPS (R11)(AX*4), X2
	MULPS X13, X2
	ADDPS X2, X0
	MOVUPS (R12)(AX*4), X3
	MULPS X14, X3
	ADDPS X3, X0
	MOVUPS (R13)(AX*4), X4
	MULPS X15, X4
	ADDPS X4, X0
	MOVUPS X0, (DI)(AX*4)
	ADDQ $4, AX
	JMP loop4

tail:
	CMPQ AX, CX
	JGE done
	MOVSS (DI)(AX*4), X0
	MOVSS (SI)(AX*4), X1
	MULSS X8, X1
	ADDSS X1, X0
	MOVSS (BX)(AX*4), X2
	MULSS X9, X2
	ADDSS X2, X0
	MOVSS (R8)(AX*4), X3
	MULSS X10, X3
	ADDSS X3, X0
	MOVSS (R9)(AX*4), X4
	MULSS X11, X4
	ADDSS X4, X0
	MOVSS (R10)(AX*4), X1
	MULSS X12, X1
	ADDSS X1, X0
	MOVSS (R11)(AX*4), X2
	MULSS X13, X2
	ADDSS X2, X0
	MOVSS (R12)(AX*4), X3
	MULSS X14, X3
	ADDSS X3, X0
	MOVSS (R13)(AX*4), X4
	MULSS X15, X4
	ADDSS X4, X0
	MOVSS X0, (DI)(AX*4)
	INCQ AX
	JMP tail

done:
	RET
