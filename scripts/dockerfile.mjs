// The Dockerfile's stages as data, for scripts/check-image.mjs: each stage's ENV, WORKDIR, USER, CMD,
// ENTRYPOINT, RUN and COPY instructions, so that the check starts the assembled images exactly as
// Docker would. It reads the subset of the syntax the Dockerfile uses (a stage built FROM another stage
// inherits its ENV and WORKDIR); anything else fails loudly rather than being guessed at.
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';

/** Instructions, one per logical line: comments dropped, `\`-continued lines joined. */
function instructions(text) {
  const out = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (current === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1).trim()} `;
      continue;
    }
    current += line;
    const [keyword, ...rest] = current.split(/\s+/);
    out.push({ keyword: keyword.toUpperCase(), args: rest.join(' ') });
    current = '';
  }
  return out;
}

/** `K=V K2="V 2"` → { K: 'V', K2: 'V 2' }. */
function parseEnv(args) {
  const env = {};
  for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|\S*)/g)) {
    env[match[1]] = match[3] ?? match[2];
  }
  if (Object.keys(env).length === 0) throw new Error(`ENV ${args}: only the K=V form is read`);
  return env;
}

function parseExecForm(keyword, args) {
  if (!args.startsWith('[')) throw new Error(`${keyword} ${args}: only the exec (JSON) form is read`);
  return JSON.parse(args);
}

export function readDockerfile(path) {
  const stages = [];
  let stage;
  for (const { keyword, args } of instructions(readFileSync(path, 'utf8'))) {
    if (keyword === 'FROM') {
      const [, base, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      const parent = stages.find((s) => s.name === base);
      stage = {
        name: name ?? String(stages.length),
        base,
        env: { ...parent?.env },
        workdir: parent?.workdir ?? '/',
        user: parent?.user ?? 'root',
        cmd: parent?.cmd ?? [],
        entrypoint: parent?.entrypoint ?? [],
        runs: [],
        copies: [],
      };
      stages.push(stage);
      continue;
    }
    if (!stage) continue; // parser directives and ARGs before the first FROM
    if (keyword === 'ENV') Object.assign(stage.env, parseEnv(args));
    else if (keyword === 'WORKDIR') stage.workdir = posix.resolve(stage.workdir, args);
    else if (keyword === 'USER') stage.user = args;
    else if (keyword === 'CMD') stage.cmd = parseExecForm(keyword, args);
    else if (keyword === 'ENTRYPOINT') stage.entrypoint = parseExecForm(keyword, args);
    else if (keyword === 'RUN') stage.runs.push(args);
    else if (keyword === 'COPY') stage.copies.push(args);
  }
  return {
    stages,
    stage(name) {
      const found = stages.find((s) => s.name === name);
      if (!found) throw new Error(`${path} has no stage ${name}`);
      return found;
    },
  };
}
