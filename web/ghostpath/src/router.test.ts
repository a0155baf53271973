import { describe, expect, it } from "vitest";
import { matchRoute } from "./router";

describe("matchRoute", () => {
  it.each([
    ["/ghostpath/", { page: "home" }],
    ["/ghostpath", { page: "home" }],
    ["/ghostpath/sessions/abc-1", { page: "session", id: "abc-1" }],
    ["/ghostpath/sessions/abc-1/", { page: "session", id: "abc-1" }],
    ["/ghostpath/sessions/a%20b/report", { page: "report", id: "a b" }],
    ["/ghostpath/sessions/%E0%A4%A/report", { page: "not_found" }],
    ["/ghostpath/sessions", { page: "not_found" }],
    ["/ghostpath/other", { page: "not_found" }],
    ["/elsewhere", { page: "not_found" }],
  ])("%s", (path, want) => expect(matchRoute(path, "/ghostpath/")).toEqual(want));
});
