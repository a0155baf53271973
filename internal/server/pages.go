package server

// ReleaseStartupPages gives back to the system the pages of the running
// executable's code and read-only data that are resident now, and reports
// how many bytes of mappings it advised (0 where the system cannot).
//
// Starting `paige serve` runs a great deal of code once — package
// initialisation, migrations, schema building, wiring every capability —
// and the kernel maps the binary's pages around each one it touches, so a
// fresh server holds about 20 MiB of its 31 MB binary resident though it
// serves requests from a few MiB of it. Called once the server is ready,
// this drops them (Linux: madvise MADV_PAGEOUT on the executable's
// read-only mappings); the pages requests need come back on first use, as
// at start. The heap, stacks and writable data are untouched. Errors are
// not fatal: the process only keeps more memory resident.
func ReleaseStartupPages() (int64, error) { return releaseStartupPages() }
