/**
 * Natural language for pddl2prm (DESIGN.md §8): nl.json templates, the renderer of prompts,
 * steps and critiques, the generic translator for domains without templates, and the parser of
 * step text back to ground actions.
 */
export { NlJsonSchema, TypeEntrySchema, PredicateEntrySchema } from "./schema.js";
export type { NlJson, TypeEntry, PredicateEntry } from "./schema.js";
export { loadTemplates, loadTemplatesFile, compileTemplates, parseTemplatesText, readTemplatesFile } from "./templates.js";
export type { NlTemplates, TypeTemplate, PredicateTemplate, ActionTemplate, TemplateOptions } from "./templates.js";
export { genericTemplates, completeTemplates } from "./generic.js";
export { createRenderer } from "./renderer.js";
export { secondPerson } from "./text.js";
export type { Renderer } from "./renderer.js";
