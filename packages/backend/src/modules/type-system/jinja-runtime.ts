/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call --
 * @huggingface/jinja's declaration files import their siblings without extensions, which NodeNext
 * cannot resolve, so every export types as unresolved. This file declares the part of the API the
 * type system uses; nothing else imports the package. */
import * as jinja from '@huggingface/jinja';

/** A lexer token. */
export interface JinjaToken {
  type: string;
  value: string;
}

/** An AST node; the walker narrows by `type`. */
export interface JinjaNode {
  type: string;
}

/** The root of a parsed template. */
export interface JinjaProgram extends JinjaNode {
  body: JinjaNode[];
}

/** A variable scope of the interpreter. */
export interface JinjaEnvironment {
  variables: Map<string, unknown>;
  /** Declares a variable from a plain JS value; throws if it is already declared. */
  set(name: string, value: unknown): unknown;
}

interface JinjaInterpreter {
  run(program: JinjaProgram): { value: unknown };
}

/** Splits template source into tokens. */
export const tokenize: (
  source: string,
  options?: { lstrip_blocks?: boolean; trim_blocks?: boolean },
) => JinjaToken[] = jinja.tokenize;
/** Parses tokens into a program. */
export const parse: (tokens: JinjaToken[]) => JinjaProgram = jinja.parse;
/** Creates an empty root scope (the library pre-declares `namespace` in it). */
export const createEnvironment = (): JinjaEnvironment => new jinja.Environment() as JinjaEnvironment;
/** Runs a program in a scope. */
export const createInterpreter = (environment: JinjaEnvironment): JinjaInterpreter =>
  new jinja.Interpreter(environment) as JinjaInterpreter;
