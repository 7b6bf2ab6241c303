import { describe, expect, it } from "vitest";
import { chatMessagesToCsv, csvField } from "./chat-message-csv";
import { domainNamesFromCsv } from "./domain-csv";

describe("CSV export of messages", () => {
  it("quotes commas, quotes and line breaks, writes JSON fields as JSON and defuses formulas", () => {
    expect(csvField('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField(null)).toBe("");
    const csv = chatMessagesToCsv([
      {
        id: "1",
        role: "apiMessage",
        chatflowid: "f",
        content: "a,b",
        sessionId: "s",
        chatId: "c",
        chatType: "EXTERNAL",
        memoryType: null,
        chatflowVersion: 3,
        sourceDocuments: null,
        usedTools: [{ tool: "t" }],
        fileUploads: null,
        createdDate: "2025-01-01T00:00:00.000Z",
        feedback: { id: "fb", rating: "THUMBS_DOWN", content: "wrong, again", createdDate: "2025-01-01T00:00:01.000Z" },
      },
    ]);
    expect(csv).toBe(
      "id,createdDate,sessionId,chatId,chatType,role,content,memoryType,chatflowVersion,usedTools,sourceDocuments,fileUploads,feedbackRating,feedbackContent\r\n" +
        '1,2025-01-01T00:00:00.000Z,s,c,EXTERNAL,apiMessage,"a,b",,3,"[{""tool"":""t""}]",,,THUMBS_DOWN,"wrong, again"\r\n',
    );
  });
});

describe("domain names from CSV", () => {
  it("takes the named column and skips the header", () => {
    expect(domainNamesFromCsv('id;Domain;note\n1;example.com;"a; b"\n2;"shop.example.org";x\n\n')).toEqual([
      "example.com",
      "shop.example.org",
    ]);
  });
  it("reads a headerless list from the first column, with a BOM and CRLF", () => {
    expect(domainNamesFromCsv("\uFEFFexample.com,1\r\nother.org,2\r\n")).toEqual(["example.com", "other.org"]);
    expect(domainNamesFromCsv("a.com\nb.com")).toEqual(["a.com", "b.com"]);
    expect(domainNamesFromCsv("")).toEqual([]);
  });
});
