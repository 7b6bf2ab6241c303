import { describe, expect, it } from "vitest";
import { base64DataSize, dataUrlFileName, dataUrlParam, parseBase64DataUrl, parseDataUrl } from "./data-url";

describe("parseDataUrl", () => {
  it("splits type, parameters, the base64 flag and the data at the first comma", () => {
    expect(parseDataUrl("data:application/pdf;name=a.pdf;base64,JVBE,x")).toEqual({
      type: "application/pdf",
      params: ["name=a.pdf"],
      base64: true,
      data: "JVBE,x",
    });
    expect(parseDataUrl("data:text/yaml,a%3A%201")).toEqual({
      type: "text/yaml",
      params: [],
      base64: false,
      data: "a%3A%201",
    });
    expect(parseDataUrl("data:;base64,QQ==")).toEqual({ type: "", params: [], base64: true, data: "QQ==" });
    expect(parseDataUrl("data:,")).toEqual({ type: "", params: [], base64: false, data: "" });
  });

  it("reads base64 only as the last parameter, never as the type", () => {
    expect(parseDataUrl("data:base64,QQ==")).toMatchObject({ type: "base64", base64: false });
    expect(parseDataUrl("data:text/plain;base64;x=1,QQ==")).toMatchObject({ base64: false, params: ["base64", "x=1"] });
  });

  it("is undefined for anything that is not a data URL", () => {
    for (const value of ["plain text", "DATA:text/plain,x", "data:text/plain", " data:text/plain,x", ""])
      expect(parseDataUrl(value), value).toBeUndefined();
  });
});

describe("parseBase64DataUrl", () => {
  it("strict (uploads): a type, name=value parameters with values, base64 characters only", () => {
    expect(parseBase64DataUrl("data:image/png;base64,iVBORw0KGgo=")).toMatchObject({
      type: "image/png",
      data: "iVBORw0KGgo=",
    });
    expect(parseBase64DataUrl("data:audio/webm;codecs=opus;base64,GkXfow==")).toMatchObject({
      params: ["codecs=opus"],
    });
    for (const bad of [
      "data:;base64,QQ==", // no type
      "data:image/png,QQ==", // not base64
      "data:image/png;flag;base64,QQ==", // bare parameter
      "data:image/png;name=;base64,QQ==", // empty value
      "data:image/png;base64,QQ ==", // whitespace
      "data:image/png;base64,Q=Q=", // padding inside
      "data:image/png;base64;base64,QQ==",
    ])
      expect(parseBase64DataUrl(bad), bad).toBeUndefined();
  });

  it("saved (files in a flow): also an empty name= and line-wrapped base64", () => {
    expect(parseBase64DataUrl("data:application/pdf;name=;base64,JVBE\nRi0=", "saved")).toMatchObject({
      params: ["name="],
      data: "JVBE\nRi0=",
    });
    expect(parseBase64DataUrl("data:application/pdf;flag;base64,JVBE", "saved")).toBeUndefined();
    expect(parseBase64DataUrl("data:text/plain,oops", "saved")).toBeUndefined();
  });
});

describe("data URL file names and sizes", () => {
  const url = (value: string) => parseDataUrl(value)!;

  it("reads the first name= parameter, percent-decoded and made safe", () => {
    expect(dataUrlParam(url("data:a/b;x=1;name=n%20m;name=other;base64,"), "name")).toBe("n%20m");
    expect(dataUrlFileName(url(`data:a/b;name=${encodeURIComponent("my terms.pdf")};base64,`))).toBe("my terms.pdf");
    expect(dataUrlFileName(url(`data:a/b;name=${encodeURIComponent("..\\..\\etc/passwd")};base64,`))).toBe("passwd");
    expect(dataUrlFileName(url(`data:a/b;name=${encodeURIComponent("Straße.pdf")};base64,`))).toBe("Straße.pdf");
  });

  it("has no name without a usable name= parameter", () => {
    for (const value of [
      "data:a/b;base64,",
      "data:a/b;name=;base64,",
      "data:a/b;name=%E0%A4%A;base64,",
      "data:a/b;name=..;base64,",
    ]) {
      expect(dataUrlFileName(url(value)), value).toBeUndefined();
    }
  });

  it("counts the decoded bytes without decoding", () => {
    for (const n of [0, 1, 2, 3, 100]) {
      const data = btoa("x".repeat(n));
      expect(base64DataSize(url(`data:a/b;base64,${data}`))).toBe(n);
    }
  });
});
