/**
 * Offline validation of Kubernetes objects against the API's schemas, as the
 * npm package kubernetes-models ships them: `validate()` of the object's model
 * class (types, formats, enums, required fields), and the model's TypeScript
 * interface for fields the API does not have (the schema check lets them
 * through; the API server drops them, or refuses them with strict field
 * validation). Each object becomes a typed constant of a TypeScript file that
 * the compiler checks, so a misspelt field anywhere in it is reported.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from './recipes.ts';

/** kubernetes-models' module of a kind: `batch/v1` + `Job` is kubernetes-models/batch/v1/Job (core kinds are under v1/). */
function modulePath(obj: any): string {
  if (typeof obj?.apiVersion !== 'string' || typeof obj?.kind !== 'string') throw new Error('an object without apiVersion and kind');
  return `kubernetes-models/${obj.apiVersion}/${obj.kind}`;
}

/** The schema errors of an object (empty when it is valid). */
export async function schemaErrors(obj: any): Promise<string[]> {
  let Model: { new (data: unknown): { validate(): void } };
  try {
    Model = (await import(modulePath(obj)))[obj.kind];
  } catch {
    return [`no Kubernetes schema for ${obj?.apiVersion} ${obj?.kind}`];
  }
  try {
    new Model(obj).validate();
    return [];
  } catch (e) {
    return [(e as Error).message];
  }
}

const VIRTUAL = join(ROOT, 'test', 'deploy', '__objects__.ts');
const OPTIONS: ts.CompilerOptions = {
  strict: true, noEmit: true, skipLibCheck: true, types: [],
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
};
// The library's declaration files are parsed once for all calls.
const parsed = new Map<string, ts.SourceFile | undefined>();
const host = ts.createCompilerHost(OPTIONS);
const readSource = host.getSourceFile.bind(host);
let previous: ts.Program | undefined;

/** Fields of each object that its kind does not have, as `name: message` lines (empty when there are none). */
export function unknownFields(objects: readonly { readonly name: string; readonly obj: any }[]): string[] {
  const lines = objects.map(({ obj }, i) => `import type { I${obj.kind} as T${i} } from '${modulePath(obj)}';`);
  const starts: number[] = [];
  let text = `${lines.join('\n')}\n`;
  objects.forEach(({ obj }, i) => {
    starts.push(text.length);
    text += `export const o${i}: T${i} = ${JSON.stringify(obj, null, 1)};\n`;
  });
  host.getSourceFile = (file, language, ...rest) => {
    if (file === VIRTUAL) return ts.createSourceFile(file, text, language);
    if (!parsed.has(file)) parsed.set(file, readSource(file, language, ...rest));
    return parsed.get(file);
  };
  const program = ts.createProgram([VIRTUAL], OPTIONS, host, previous);
  previous = program;
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const at = d.start ?? 0;
    let i = -1;
    while (i + 1 < starts.length && starts[i + 1] <= at) i++;
    return `${i >= 0 ? objects[i].name : 'imports'}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
