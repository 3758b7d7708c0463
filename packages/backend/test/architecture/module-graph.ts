import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import between two source files, both relative to `src/`, with `/` separators. */
export interface ImportEdge {
  from: string;
  to: string;
}

/**
 * The folder a file belongs to for the dependency rule: `modules/<name>` or `common/<name>`; anything
 * else (app.module, database/, config/, bootstrap/, seeds/, docs/) is the composition root and
 * infrastructure, outside the graph.
 */
export function folderOf(file: string): string | undefined {
  const [top, name, ...rest] = file.split('/');
  return (top === 'modules' || top === 'common') && name && rest.length > 0 ? `${top}/${name}` : undefined;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Every relative import of every `.ts` file under `srcDir` — value and type imports, `export … from`
 * and dynamic `import()` alike — read by the TypeScript compiler's pre-processor (no type checking).
 */
export function readImports(srcDir: string): ImportEdge[] {
  const root = resolve(srcDir);
  const rel = (path: string) => relative(root, path).split(sep).join('/');
  return sourceFiles(root).flatMap((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    return importedFiles
      .filter((imported) => imported.fileName.startsWith('.'))
      .map((imported) => ({
        from: rel(file),
        to: rel(resolve(dirname(file), imported.fileName.replace(/\.js$/, '.ts'))),
      }));
  });
}

/** Folder-to-folder dependencies (distinct), each with the file imports behind it. */
export function folderEdges(edges: readonly ImportEdge[]): Map<string, Map<string, ImportEdge[]>> {
  const graph = new Map<string, Map<string, ImportEdge[]>>();
  for (const edge of edges) {
    const from = folderOf(edge.from);
    const to = folderOf(edge.to);
    if (!from || !to || from === to) continue;
    const targets = graph.get(from) ?? new Map<string, ImportEdge[]>();
    graph.set(from, targets);
    targets.set(to, [...(targets.get(to) ?? []), edge]);
  }
  return graph;
}

/**
 * The folders that depend on each other in a cycle: the strongly connected components of more than one
 * folder (Tarjan's algorithm), each sorted, described by the file imports between its members.
 */
export function folderCycles(edges: readonly ImportEdge[]): { folders: string[]; imports: string[] }[] {
  const graph = folderEdges(edges);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((folders) => ({
    folders,
    imports: folders.flatMap((from) =>
      [...(graph.get(from) ?? new Map<string, ImportEdge[]>()).entries()]
        .filter(([to]) => folders.includes(to))
        .flatMap(([, list]) => list.map((e) => `${e.from} -> ${e.to}`)),
    ),
  }));
}

/** `modules/<name>/<file>.repository.ts` → `modules/<name>`. */
function repositoryFolder(file: string): string | undefined {
  return /^modules\/[^/]+\/[^/]+\.repository\.ts$/.test(file) ? folderOf(file) : undefined;
}

/**
 * Imports of another module's `*.repository.ts` (its persistence is its own: other modules go through
 * what it exports, ADR 0026), except the folder pairs of `allowed` (`from` folder → repository folders).
 */
export function foreignRepositoryImports(
  edges: readonly ImportEdge[],
  allowed: Readonly<Record<string, readonly string[]>>,
): { violations: string[]; used: Set<string> } {
  const violations: string[] = [];
  const used = new Set<string>();
  for (const edge of edges) {
    const from = folderOf(edge.from);
    const owner = repositoryFolder(edge.to);
    if (!from || !owner || owner === from) continue;
    if (allowed[from]?.includes(owner)) used.add(`${from} -> ${owner}`);
    else violations.push(`${edge.from} -> ${edge.to}`);
  }
  return { violations, used };
}

/**
 * Calls of the generic CRUD layer on another module's rows: `this.<field>.crud.<method>` where the
 * field is a constructor parameter property typed by a class imported from another folder. Other
 * modules' rows are reached through their lookups and named methods (ADR 0026), never `.crud`.
 */
export function foreignCrudCalls(srcDir: string): string[] {
  const root = resolve(srcDir);
  const calls: string[] = [];
  for (const file of sourceFiles(join(root, 'modules'))) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('.crud.')) continue;
    const path = relative(root, file).split(sep).join('/');
    const own = folderOf(path);
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const folderOfName = new Map<string, string | undefined>();
    const fieldFolder = new Map<string, string | undefined>();
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const target = relative(root, resolve(dirname(file), node.moduleSpecifier.text))
          .split(sep)
          .join('/');
        const bindings = node.importClause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) folderOfName.set(element.name.text, folderOf(target));
        }
      }
      if (ts.isParameter(node) && node.modifiers?.length && ts.isIdentifier(node.name) && node.type) {
        const typeName = ts.isTypeReferenceNode(node.type) ? node.type.typeName.getText(source) : undefined;
        if (typeName && folderOfName.has(typeName))
          fieldFolder.set(node.name.text, folderOfName.get(typeName));
      }
      if (
        ts.isPropertyAccessExpression(node) &&
        node.name.text === 'crud' &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.expression.kind === ts.SyntaxKind.ThisKeyword
      ) {
        const folder = fieldFolder.get(node.expression.name.text);
        if (folder && folder !== own) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          calls.push(`${path}:${line + 1} ${node.parent.getText(source)}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return calls;
}
