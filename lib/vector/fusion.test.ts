import { describe, expect, it } from "vitest";
import { reciprocalRankFusion } from "./fusion";

const d = (source: string, text: string) => ({ pageContent: text, metadata: { source } });

describe("reciprocalRankFusion", () => {
  it("ranks a chunk found by both lists first, keeps chunks only one list found, de-duplicates", () => {
    const vector = [d("a", "only vector"), d("b", "both")];
    const keyword = [d("b", "both"), d("c", "only keyword")];
    const fused = reciprocalRankFusion([vector, keyword], 3);
    expect(fused.map((x) => x.pageContent)).toEqual(["both", "only vector", "only keyword"]);
  });

  it("respects the limit", () => {
    expect(reciprocalRankFusion([[d("a", "1"), d("a", "2")], [d("a", "3")]], 2)).toHaveLength(2);
  });
});
