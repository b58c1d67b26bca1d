import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md, "Adding a public API action": an action validates, calls a domain
 * operation (server/contacts, server/channels, server/engine, …) and shapes the answer. Reading
 * and writing the database is the domain's, so the engine, the UI and the API share one
 * implementation of each operation. In the actions and the public-api files they import, this
 * refuses:
 * - a value import of the database layer (`server/db`, its generated client, `@prisma/*`); a
 *   type may be named (`Db`, to pass a handle on);
 * - any use of a database handle but passing it on: `ctx.db.client…`, `db.channel…`, a handle
 *   called, or used under another name (`const { db } = ctx`, `const d = ctx.db`, a parameter
 *   typed `Db`);
 * - Prisma's own members (`$queryRaw`, `$transaction`, …) and the database layer's entry points
 *   (`getDb`, `plainSql`, …) by name, wherever they came from.
 * The request pipeline (handle-request.ts) is where the handle comes from; it is not an action.
 */

const ACTIONS = 'server/public-api/actions';
const PUBLIC_API = 'server/public-api';

/** A module of the database layer, by its specifier or its path from the repository's root. */
const DB_MODULE = /^(@\/server\/db(\/|$)|server\/db(\/|$)|@prisma\/|\.prisma\/)/;
/** Names under which a handle comes in. */
const HANDLE_NAMES = new Set(['db', 'tx']);
/** Types of a handle, as a parameter's annotation names them. */
const HANDLE_TYPES = new Set(['Db', 'PrismaClient', 'TransactionClient', 'Database']);
/** The database layer's entry points. */
const DB_ENTRY_POINTS = new Set([
  'getDb',
  'getDatabase',
  'plainSql',
  'sqlTransaction',
  'PreparedStatement',
  'BatchedStatement',
  'createPrismaClient',
]);

const unwrap = (node: ts.Expression): ts.Expression =>
  ts.isParenthesizedExpression(node) ||
  ts.isAsExpression(node) ||
  ts.isNonNullExpression(node) ||
  ts.isSatisfiesExpression(node)
    ? unwrap(node.expression)
    : node;

const isTypeOnlyImport = (node: ts.ImportDeclaration) => {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
};

/** The specifier as a path from the repository's root when it is one (`@/x`, `./x`), else as written. */
function fromRoot(specifier: string, fileName: string): string {
  if (specifier.startsWith('@/')) return specifier.slice(2);
  if (specifier.startsWith('.'))
    return path.posix.normalize(path.posix.join(path.posix.dirname(fileName), specifier));
  return specifier;
}

const isDbModule = (specifier: string, fileName: string) =>
  DB_MODULE.test(specifier) || DB_MODULE.test(fromRoot(specifier, fileName));

/** `line: what` for each access to the database in the source of `fileName` (a path from the root). */
function databaseAccess(source: string, fileName: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const handles = new Set(HANDLE_NAMES);
  const isHandle = (expr: ts.Expression): boolean => {
    const node = unwrap(expr);
    if (ts.isIdentifier(node)) return handles.has(node.text);
    return ts.isPropertyAccessExpression(node) && node.name.text === 'db';
  };

  // The names a handle goes by in this file, until no new one appears (`const d = ctx.db; const e = d`).
  let size = -1;
  while (size !== handles.size) {
    size = handles.size;
    const collect = (node: ts.Node) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        if (isHandle(node.initializer)) handles.add(node.name.text);
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
        if (ts.isIdentifier(node.left) && isHandle(node.right)) handles.add(node.left.text);
      }
      if (ts.isBindingElement(node) && ts.isIdentifier(node.name)) {
        const property = node.propertyName ?? node.name;
        if (ts.isIdentifier(property) && property.text === 'db') handles.add(node.name.text);
      }
      if (
        ts.isParameter(node) &&
        ts.isIdentifier(node.name) &&
        node.type &&
        ts.isTypeReferenceNode(node.type)
      ) {
        const typeName = node.type.typeName;
        const last = ts.isIdentifier(typeName) ? typeName.text : typeName.right.text;
        if (HANDLE_TYPES.has(last)) handles.add(node.name.text);
      }
      ts.forEachChild(node, collect);
    };
    collect(file);
  }

  const found: string[] = [];
  const report = (node: ts.Node, what: string) =>
    found.push(`${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${what}`);
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (isDbModule(node.moduleSpecifier.text, fileName) && !isTypeOnlyImport(node))
        report(node, `imports ${node.moduleSpecifier.text}`);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (isDbModule(node.moduleSpecifier.text, fileName) && !node.isTypeOnly)
        report(node, `re-exports ${node.moduleSpecifier.text}`);
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const loads =
        node.expression.kind === ts.SyntaxKind.ImportKeyword || node.expression.getText(file) === 'require';
      if (loads && first && ts.isStringLiteral(first) && isDbModule(first.text, fileName))
        report(node, `loads ${first.text}`);
      if (isHandle(node.expression))
        report(node, `calls the database handle ${node.expression.getText(file)}`);
    } else if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      if (isHandle(node.expression)) report(node, `uses the database handle: ${node.getText(file)}`);
      else if (ts.isPropertyAccessExpression(node) && node.name.text.startsWith('$'))
        report(node, `uses the Prisma client's ${node.name.text}`);
    } else if (ts.isVariableDeclaration(node) && !ts.isIdentifier(node.name) && node.initializer) {
      if (isHandle(node.initializer)) report(node, `takes the database handle apart: ${node.getText(file)}`);
    } else if (ts.isBindingElement(node) && !ts.isIdentifier(node.name)) {
      const property = node.propertyName;
      if (property && ts.isIdentifier(property) && property.text === 'db')
        report(node, `takes the database handle apart: ${node.getText(file)}`);
    } else if (ts.isIdentifier(node) && DB_ENTRY_POINTS.has(node.text)) {
      report(node, `uses the database layer's ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** A relative or `@/` import of another public-api module, as a file path; null for any other. */
function publicApiModule(specifier: string, fileName: string): string | null {
  if (!specifier.startsWith('.') && !specifier.startsWith('@/')) return null;
  const target = fromRoot(specifier, fileName);
  if (!target.startsWith(`${PUBLIC_API}/`)) return null;
  return (
    [`${target}.ts`, `${target}/index.ts`, target].find((f) => fs.existsSync(f) && fs.statSync(f).isFile()) ??
    null
  );
}

/** The actions and every public-api module they import (not the request pipeline around them). */
function scannedFiles(): string[] {
  const queue = fs
    .readdirSync(ACTIONS)
    .filter((name) => name.endsWith('.ts') && !name.includes('.test.'))
    .map((name) => path.posix.join(ACTIONS, name));
  const seen = new Set<string>();
  while (queue.length) {
    const fileName = queue.shift()!;
    if (seen.has(fileName)) continue;
    seen.add(fileName);
    const file = ts.createSourceFile(
      fileName,
      fs.readFileSync(fileName, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    for (const statement of file.statements) {
      if (
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
        statement.moduleSpecifier &&
        ts.isStringLiteral(statement.moduleSpecifier)
      ) {
        const next = publicApiModule(statement.moduleSpecifier.text, fileName);
        if (next) queue.push(next);
      }
    }
  }
  return [...seen].sort();
}

describe('public API actions call domain modules only', () => {
  it('the checker finds the database in an action, and lets a handle be passed on', () => {
    const code = [
      "import { getDb } from '@/server/db';",
      "import type { Db } from '@/server/db/client-type';",
      "import { type Prisma } from '@/server/db/generated/client';",
      "import { Prisma as P } from '@/server/db/generated/client';",
      'const row = await ctx.db.client.findFirst({ where: { id } });',
      'await findThing(ctx.db, ctx.projectId, { db: ctx.db });',
      'const { db } = ctx; await db.channel.findMany();',
      'const handle = ctx.db; await handle.client.count();',
      'async function f(database: Db) { return database.client.count(); }',
      'await someClient.$queryRaw`SELECT 1`;',
      'await plainSql(x).run(statement, {});',
      'const deps = await getEngineDeps(); await deps.db.deal.findMany();',
      "const m = await import('../../db/raw-sql');",
      'await ctx.db["client"].findFirst();',
      "export { getDb as open } from '@/server/db';",
      'await tx.$transaction(async (inner: Prisma.TransactionClient) => inner.client.count());',
      "const { db: { client } } = ctx; const raw = require('@/server/db/raw-sql');",
      '(ctx.db as Db).$disconnect(); ctx.db();',
      'const { channel } = ctx.db;',
    ].join('\n');
    expect(databaseAccess(code, 'server/public-api/actions/x.ts')).toEqual([
      '1: imports @/server/db',
      "1: uses the database layer's getDb",
      '4: imports @/server/db/generated/client',
      '5: uses the database handle: ctx.db.client',
      '7: uses the database handle: db.channel',
      '8: uses the database handle: handle.client',
      '9: uses the database handle: database.client',
      "10: uses the Prisma client's $queryRaw",
      "11: uses the database layer's plainSql",
      '12: uses the database handle: deps.db.deal',
      '13: loads ../../db/raw-sql',
      '14: uses the database handle: ctx.db["client"]',
      '15: re-exports @/server/db',
      "15: uses the database layer's getDb",
      '16: uses the database handle: tx.$transaction',
      '16: uses the database handle: inner.client',
      '17: takes the database handle apart: db: { client }',
      '17: loads @/server/db/raw-sql',
      '18: uses the database handle: (ctx.db as Db).$disconnect',
      '18: calls the database handle ctx.db',
      '19: takes the database handle apart: { channel } = ctx.db',
    ]);
  });

  it('the scan follows the actions into the public-api modules they import', () => {
    const files = scannedFiles();
    expect(files).toContain('server/public-api/actions/lookups.ts');
    expect(files).toContain('server/public-api/action.ts');
    expect(files).toContain('server/public-api/api-error.ts');
    expect(files).not.toContain('server/public-api/handle-request.ts');
  });

  it('no action, nor a public-api module an action imports, touches the database itself', () => {
    const found = scannedFiles().flatMap((file) =>
      databaseAccess(fs.readFileSync(file, 'utf8'), file).map((access) => `${file}:${access}`),
    );
    expect(found).toEqual([]);
  });
});
