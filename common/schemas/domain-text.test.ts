import { describe, expect, it } from "vitest";
import { domainNamesFromText } from "./domain-csv";

describe("domainNamesFromText", () => {
  it("splits by lines and commas only, trimming each entry and dropping empty ones", () => {
    expect(domainNamesFromText("not a domain\n good.example.com ,other.example.org\r\n\n,, last.io ")).toEqual([
      "not a domain",
      "good.example.com",
      "other.example.org",
      "last.io",
    ]);
    expect(domainNamesFromText(" \n , ")).toEqual([]);
  });
});
