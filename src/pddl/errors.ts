import type { Loc } from "./ast.js";

/**
 * Every syntax or semantic error in PDDL input. `toString()` gives the CLI format
 * `file:line:col: error: message`.
 */
export class PddlError extends Error {
  readonly file: string;
  readonly line: number;
  readonly column: number;

  constructor(message: string, loc: Loc) {
    super(message);
    this.name = "PddlError";
    this.file = loc.file;
    this.line = loc.line;
    this.column = loc.column;
  }

  /** `file:line:col: error: message` */
  format(): string {
    return `${this.file}:${this.line}:${this.column}: error: ${this.message}`;
  }

  override toString(): string {
    return this.format();
  }
}

/** A user-facing error that is not tied to a source position (bad flag, missing file, ...). */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UserError";
  }
}
