import { describe, expect, it } from "vitest";
import { answerText, readChoice, readEffectLists, readYesNo } from "../src/reasoning/answers.js";
import { gradeAcp, scoreAcp, type AcpGoldItem } from "../src/reasoning/score.js";

const item = (form: AcpGoldItem["form"], kind: AcpGoldItem["kind"], gold: Partial<AcpGoldItem["gold"]>, id = "d/p/x1"): AcpGoldItem => ({
  id,
  domain: "d",
  problem: "p",
  kind,
  form,
  gold: { answer: "", accept: null, set: null, ...gold },
});

describe("answers as models write them (issue 52)", () => {
  // [answer, what it says] — yes/no
  const yesNo: [string, "yes" | "no" | null][] = [
    ["yes", "yes"],
    ["Yes.", "yes"],
    ["YES", "yes"],
    ["(yes)", "yes"],
    ["**yes**", "yes"],
    ["No, because the hand is not empty.", "no"],
    ["The answer is no.", "no"],
    ["Answer: Yes", "yes"],
    ["Final answer: **No**", "no"],
    ["<think>Maybe yes, maybe no. Let me check the preconditions.</think>\nNo", "no"],
    ["I checked every precondition, so the answer is yes.", "yes"],
    ["True", "yes"],
    ["false", "no"],
    ["It could be yes or no.", null],
    ["I cannot tell.", null],
  ];
  it.each(yesNo)("yes/no: %j -> %s", (a, want) => expect(readYesNo(a)).toBe(want));

  const choices: [string, string | null][] = [
    ["B", "B"],
    ["b", "B"],
    ["(C)", "C"],
    ["[D]", "D"],
    ["A.", "A"],
    ["D. unstack b from a", "D"],
    ["The answer is B", "B"],
    ["The answer is (c).", "C"],
    ["Answer: B", "B"],
    ["**B**", "B"],
    ["Option C is the only one that applies.", "C"],
    ["<think>A fails, B fails.</think> The correct answer is D", "D"],
    ["I choose a", "A"],
    ["\\boxed{B}", "B"],
    ["A plan cannot be found", null],
    ["Either B or C", null],
  ];
  it.each(choices)("choice: %j -> %s", (a, want) => expect(readChoice(a)).toBe(want));

  it("progression lists in ACPBench's forms", () => {
    expect(readEffectLists("[(on a b), (clear c)] [(holding a)]")).toEqual({ add: "(on a b), (clear c)", del: "(holding a)" });
    expect(readEffectLists("Positive effects: (on a b). Negative effects: (holding a)")).toEqual({ add: "(on a b). ", del: "(holding a)" });
    expect(readEffectLists("+(on a b) -(holding a)")).toBeNull();
    expect(answerText("<think>x</think>**(on a b)**")).toBe("(on a b)");
  });

  it("grades progression in ACPBench's list form and in signed atoms alike", () => {
    const g = item("free", "progression", { set: ["+(on a b)", "+(clear c)", "-(holding a)"] });
    expect(gradeAcp(g, "[(on a b), (clear c)] [(holding a)]", null)).toBe(true);
    expect(gradeAcp(g, "Positive effects: (on a b), (clear c)\nNegative effects: (holding a)", null)).toBe(true);
    expect(gradeAcp(g, "+(on a b) +(clear c) -(holding a)", null)).toBe(true);
    expect(gradeAcp(g, "[(on a b)] [(holding a)]", null)).toBe(false);
  });

  it("score counts the answers it could not read, per form, and grades them wrong", () => {
    const gold = [item("yes-no", "applicability", { answer: "yes" }, "d/p/x1"), item("choice", "applicability", { answer: "B" }, "d/p/x2"), item("yes-no", "applicability", { answer: "no" }, "d/p/x3")];
    const r = scoreAcp(gold, new Map([["d/p/x1", "**Yes**, it is."], ["d/p/x2", "hmm"], ["d/p/x3", "The answer is no."]]), null, "pred.jsonl");
    expect(r.accuracy).toBeCloseTo(66.67, 1);
    expect(r.unparsed).toBe(1);
    expect(r.unparsed_by_form).toEqual({ choice: 1 });
  });
});
