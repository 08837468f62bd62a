import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import type { MarkdownSnippet } from './markdownSnippets.js';

/**
 * Type-checks snippets in one program, each as its own module inside the repository (so
 * `@agentlog/*` imports resolve through its node_modules to the TypeScript sources, by the
 * `source` condition), under the compiler options of the repository's `tsconfig.base.json`.
 * Returns one line per diagnostic, `docs/page.md:LINE: message`, with LINE the page's line.
 */
export function typeCheckSnippets(
  repoRoot: string,
  snippets: readonly MarkdownSnippet[],
): string[] {
  const options = projectCompilerOptions(repoRoot);
  const modules = new Map<string, MarkdownSnippet>();
  const counts = new Map<string, number>();
  for (const snippet of snippets) {
    const n = (counts.get(snippet.page) ?? 0) + 1;
    counts.set(snippet.page, n);
    const name = `${snippet.page.replace(/\.md$/i, '').replaceAll('/', '-')}-${n}.${snippet.extension}`;
    modules.set(join(repoRoot, 'docs', '.snippets', name).split(sep).join('/'), snippet);
  }
  const host = overlayHost(options, modules);
  const program = ts.createProgram({ rootNames: [...modules.keys()], options, host });
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const fileName of modules.keys()) {
    const file = program.getSourceFile(fileName);
    if (file === undefined) continue;
    diagnostics.push(...program.getSyntacticDiagnostics(file));
    diagnostics.push(...program.getSemanticDiagnostics(file));
  }
  return diagnostics.map((diagnostic) => located(repoRoot, modules, diagnostic));
}

/** The options of `tsconfig.base.json`, for checking only: no emit, TypeScript sources. */
function projectCompilerOptions(repoRoot: string): ts.CompilerOptions {
  const path = join(repoRoot, 'tsconfig.base.json');
  const read = ts.readConfigFile(path, (file) => ts.sys.readFile(file));
  if (read.error !== undefined) throw new Error(message(read.error));
  const config: unknown = read.config;
  const parsed = ts.parseJsonConfigFileContent(
    { ...(config as object), files: [], include: [] },
    ts.sys,
    repoRoot,
    undefined,
    path,
  );
  const errors = parsed.errors.filter((error) => error.code !== noInputs);
  if (errors.length > 0) throw new Error(errors.map(message).join('\n'));
  return {
    ...parsed.options,
    noEmit: true,
    composite: false,
    declaration: false,
    declarationMap: false,
    sourceMap: false,
    customConditions: ['source'],
  };
}

/** TS18002, "The 'files' list in config file is empty": the snippets are the inputs. */
const noInputs = 18002;

function overlayHost(
  options: ts.CompilerOptions,
  modules: ReadonlyMap<string, MarkdownSnippet>,
): ts.CompilerHost {
  const base = ts.createCompilerHost(options, true);
  return {
    ...base,
    fileExists: (fileName) => modules.has(fileName) || base.fileExists(fileName),
    readFile: (fileName) => {
      const snippet = modules.get(fileName);
      return snippet === undefined ? base.readFile(fileName) : moduleText(snippet);
    },
    getSourceFile: (fileName, languageVersion, onError, shouldCreate) => {
      const snippet = modules.get(fileName);
      if (snippet === undefined) {
        return base.getSourceFile(fileName, languageVersion, onError, shouldCreate);
      }
      return ts.createSourceFile(fileName, moduleText(snippet), languageVersion, true);
    },
  };
}

/** The snippet, made a module if it has no import or export, so its names stay its own. */
function moduleText(snippet: MarkdownSnippet): string {
  const file = ts.createSourceFile('snippet.ts', snippet.code, ts.ScriptTarget.Latest);
  return ts.isExternalModule(file) ? snippet.code : `${snippet.code}export {};\n`;
}

function located(
  repoRoot: string,
  modules: ReadonlyMap<string, MarkdownSnippet>,
  diagnostic: ts.Diagnostic,
): string {
  const { file, start } = diagnostic;
  if (file === undefined || start === undefined) return message(diagnostic);
  const { line } = file.getLineAndCharacterOfPosition(start);
  const snippet = modules.get(file.fileName);
  if (snippet === undefined) {
    const path = relative(repoRoot, file.fileName).split(sep).join('/');
    return `${path}:${line + 1}: ${message(diagnostic)}`;
  }
  return `${snippet.page}:${snippet.line + line}: ${message(diagnostic)}`;
}

function message(diagnostic: ts.Diagnostic): string {
  return ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ');
}
