/** An nl.json for the ferry-costs fixture (tests/fixtures/conformance/per-problem-domains), for tests of --templates. */
export const ferryTemplates = (goal = "The goal is that {goal}.") => ({
  intro: ["A ferry carries cars between places.", "Cars travel by ferry.", "One ferry, many cars."],
  predicates: {
    "ferry-at": { true: ["the ferry is at {p}"], false: ["the ferry is not at {p}"] },
    "car-at": { true: ["{c} is at {p}"], false: ["{c} is not at {p}"] },
    "on-board": { true: ["{c} is on the ferry"], false: ["{c} is not on the ferry"] },
    empty: { true: ["the ferry is empty"], false: ["the ferry is loaded"] },
  },
  actions: {
    sail: ["sail from {a} to {b}", "cross from {a} to {b}", "take the ferry from {a} to {b}"],
    board: ["drive {c} onto the ferry at {p}", "load {c} at {p}", "board {c} at {p}"],
    debark: ["drive {c} off the ferry at {p}", "unload {c} at {p}", "debark {c} at {p}"],
  } as Record<string, string[]>,
  goal: [goal],
  instruction: ["Plan the crossings."],
});
