package wsapi

//go:generate go run ./cmd/gen-ts -o ../../../web/workbench/src/protocol/catalog.gen.ts
