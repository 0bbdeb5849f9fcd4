/**
 * What the generic translator knows about a parameter from its variable and type names: the
 * noun it is called by, and whether it reads as a place, a movable thing, a value (a colour,
 * a size) or a direction. Used by the generic predicate and action phrasing.
 */
import type { TypedName } from "../pddl/ast.js";
import { isAbbreviation, splitName, typeNameWords } from "./lexicon.js";
import { paramNames } from "./text.js";

export interface ParamInfo {
  /** Placeholder name ({x} for ?x). */
  ph: string;
  /** Words of the variable name; empty when it says nothing ("?x", "?o2", "?obj"). */
  varWords: string[];
  /** Words of the first declared type; empty for `object`. */
  typeWords: string[];
  /** The noun the parameter is called by: its type, else its variable name, else "object". */
  noun: string;
  place: boolean;
  thing: boolean;
  value: boolean;
  direction: boolean;
  /** Declared with a type (`?o - object` too), not untyped. */
  typed: boolean;
}

const PLACE = new Set([
  "location", "loc", "place", "waypoint", "room", "floor", "cell", "tile", "square", "pos", "position", "city",
  "segment", "area", "site", "spot", "node", "point", "junction", "airport", "depot", "field", "zone", "region",
  "station", "hall", "building", "lane", "market", "storage", "warehouse", "hoist area", "curpos", "nextpos",
]);
const THING = new Set([
  "obj", "o", "object", "ball", "package", "pkg", "item", "cargo", "block", "crate", "box", "thing", "goods",
  "good", "part", "piece", "luggage", "parcel", "passenger", "person", "product", "board",
]);
const VALUE = new Set([
  "colour", "color", "size", "level", "mode", "treatment", "surface", "condition", "state", "status", "shape",
  "kind", "type", "count", "number", "num", "capacity", "amount", "quantity", "value", "grade", "flevel",
]);
const DIRECTION = new Set(["direction", "dir", "d", "heading", "orientation"]);
// (question words name no role: "?who ?what" say nothing a type or a condition does not)
const VAGUE = /^([a-z]|[a-z]\d+|obj\d*|object\d*|arg\d*|param\d*|var\d*|v\d*|x\d*|y\d*|z\d*|who|what|which)$/;

function hasAny(words: string[], set: Set<string>): boolean {
  if (words.length === 0) return false;
  return set.has(words.join(" ")) || set.has(words[words.length - 1]!.replace(/\d+$/, ""));
}

/** ParamInfo of each parameter, in order. */
export function paramInfos(params: readonly TypedName[]): ParamInfo[] {
  const phs = paramNames(params);
  return params.map((p, i) => {
    const raw = p.name.replace(/^\?/, "");
    const t = p.types[0] ?? "object";
    const typeWords = t === "object" ? [] : typeNameWords(t);
    // a short variable name expanded by guess ("?pt" -> point) says nothing where the type names it otherwise ("?pt - proctype")
    const guessed = isAbbreviation(raw.replace(/\d+$/, "")) && typeWords.length > 0 && !typeWords.some((w) => splitName(raw.replace(/\d+$/, "")).includes(w));
    const varWords = VAGUE.test(raw) || guessed ? [] : splitName(raw).filter((w) => !/^\d+$/.test(w)).map((w) => w.replace(/\d+$/, "")).filter((w) => w.length > 0);
    const noun = (typeWords.length > 0 ? typeWords : varWords.length > 0 ? varWords : ["object"]).join(" ");
    const all = [typeWords, splitName(raw)];
    return {
      ph: phs[i]!,
      varWords,
      typeWords,
      noun,
      // (an untyped "?l" beside "?o" is a location, as "?l - location" is: "at ?l ?o" in a domain of type predicates)
      place: all.some((w) => hasAny(w, PLACE)) || (typeWords.length === 0 && /^(l|l\d+|where)$/i.test(raw)),
      thing: all.some((w) => hasAny(w, THING)),
      value: typeWords.length > 0 ? hasAny(typeWords, VALUE) : hasAny(varWords, VALUE),
      // (a typed parameter is a direction by its type: "?d - dispenser" is not "in direction d")
      direction: typeWords.length > 0 ? hasAny(typeWords, DIRECTION) : all.some((w) => hasAny(w, DIRECTION)),
      typed: p.types.length > 0,
    };
  });
}

/** True when `words` (a run of a name's words) names parameter `p`: its type or its variable. */
export function names(words: readonly string[], p: ParamInfo): boolean {
  if (words.length === 0) return false;
  const w = words.join(" ");
  if (p.typeWords.length > 0 && (w === p.typeWords.join(" ") || w === p.typeWords[p.typeWords.length - 1])) return true;
  // a parameter of the type "object" is named by that word ("object-done ?o - object")
  if (p.typeWords.length === 0 && p.typed && w === "object") return true;
  return p.varWords.length > 0 && w === p.varWords.join(" ");
}
