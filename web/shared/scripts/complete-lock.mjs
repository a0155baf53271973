// complete-lock.mjs adds package-lock.json entries for platform-specific
// optional dependencies that `npm install` left out.
//
// npm records an optional dependency only when the registry answers for its
// exact version; a registry mirror that lacks, say, @rollup/rollup-darwin-x64
// makes `npm install` skip it silently, and `npm ci` (npm 11) then refuses
// the lockfile ("Missing: ... from lock file"). Each added entry carries the
// os/cpu/libc its name states, so npm ci skips it on other platforms and
// fetches it by name@version on the platform it is for.
//
// Usage (after npm install, in web/ghostpath or web/workbench):
//   node ../shared/scripts/complete-lock.mjs
// It completes the package-lock.json of the directory it runs in.
import { readFileSync, writeFileSync } from "node:fs";

const OS = ["android", "darwin", "freebsd", "linux", "openbsd", "openharmony", "win32", "sunos", "netbsd", "aix"];
const CPU = ["arm64", "x64", "ia32", "loong64", "ppc64", "riscv64", "s390x", "wasm32", "arm"];

export function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const out = {};
  const os = OS.find((o) => parts.includes(o));
  const cpu = CPU.find((c) => parts.includes(c));
  if (os) out.os = [os];
  if (cpu) out.cpu = [cpu];
  if (os === "linux" && parts.includes("musl")) out.libc = ["musl"];
  else if (os === "linux" && parts.some((p) => p.startsWith("gnu"))) out.libc = ["glibc"];
  return out;
}

const path = `${process.cwd()}/package-lock.json`;
const lock = JSON.parse(readFileSync(path, "utf8"));
const added = [];
for (const [key, pkg] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const nested = `${key}/node_modules/${dep}`;
    if (lock.packages[`node_modules/${dep}`] || lock.packages[nested]) continue;
    if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) continue; // only exact pins are safe to record
    lock.packages[`node_modules/${dep}`] = { version, ...(pkg.dev ? { dev: true } : {}), optional: true, ...platformOf(dep) };
    added.push(`${dep}@${version}`);
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync(path, JSON.stringify(lock, null, 2) + "\n");
console.log(added.length ? `complete-lock: added ${added.join(", ")}` : "complete-lock: nothing missing");
