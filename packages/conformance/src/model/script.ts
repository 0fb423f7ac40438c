import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileFormArgs, KEY_ENV, shellQuote } from '../transport/curl.js';
import type { LoggedCall, Step } from './sequence-context.js';

/** A string in double quotes for a POSIX shell, with `$`, `` ` ``, `"` and `\` escaped. */
function dq(text: string): string {
  return text.replace(/[$`"\\]/g, '\\$&');
}

/** The URL of a call, with the id of a document the path names written as its shell variable. */
function urlOf(call: LoggedCall): string {
  const { url } = call.request;
  if (!call.names) return `"${dq(url)}"`;
  const at = new URL(url);
  const segments = at.pathname.split('/');
  const i = segments.lastIndexOf(String(call.names.id));
  if (i < 0) return `"${dq(url)}"`;
  const before = `${at.origin}${segments.slice(0, i).join('/')}/`;
  const after = `${segments.slice(i + 1).length ? `/${segments.slice(i + 1).join('/')}` : ''}${at.search}`;
  return `"${dq(before)}$${call.names.alias}${dq(after)}"`;
}

/** Where a script's request bodies go and how it names them, and the curl options of the run's transport. */
export interface ScriptFiles {
  bodyDir: string;
  /** How the script names `bodyDir` (relative to the report's folder when there is one; default: `bodyDir`). */
  shownAs?: string;
  /** transport.ts's curlTransportArgs of the run. */
  transportArgs?: string[];
}

function curlOf(call: LoggedCall, { bodyDir, shownAs, transportArgs = [] }: ScriptFiles, prefix: string): string {
  const args = ['curl', '-sS', '-g', ...transportArgs, '-X', call.request.method, urlOf(call)];
  const { key } = call.request;
  if (typeof key === 'object' && 'literal' in key) args.push('-H', shellQuote(`x-api-key: ${key.literal}`));
  else if (key !== 'none') args.push('-H', `"x-api-key: $${KEY_ENV[call.tenant]}"`);
  for (const [name, value] of Object.entries(call.request.headers)) {
    if (name.toLowerCase() !== 'x-request-id') args.push('-H', shellQuote(`${name}: ${value}`));
  }
  const { body } = call.request;
  if (body?.kind === 'files') args.push(...fileFormArgs(body.parts, bodyDir, prefix, shownAs));
  else if (body?.kind === 'raw') {
    mkdirSync(bodyDir, { recursive: true });
    writeFileSync(join(bodyDir, `${prefix}-body.bin`), body.data);
    args.push('--data-binary', shellQuote(`@${join(shownAs ?? bodyDir, `${prefix}-body.bin`)}`));
  }
  return args.join(' ');
}

/**
 * A runnable shell script of a sequence: each step's requests as curl lines (keys from `$DOCPROC_API_KEY`
 * and `$DOCPROC_SECOND_API_KEY`, never the keys; document ids in shell variables, so the script creates
 * its own documents), with the model's expectation beside the target's answer as comments.
 * @example const script = sequenceScript(steps, { bodyDir, header: ['model run 3 (seed 42)'] });
 */
export function sequenceScript(steps: Step[], { header, ...files }: ScriptFiles & { header: string[] }): string {
  const lines = [
    '#!/bin/sh',
    ...header.map((h) => `# ${h}`),
    '# Needs DOCPROC_API_KEY (and DOCPROC_SECOND_API_KEY where a step uses the second key).',
    `ids() { grep -oE '"document_id": *[0-9]+' | grep -oE '[0-9]+$' | tr '\\n' ' '; }`,
  ];
  steps.forEach((step, n) => {
    lines.push(`# ${n + 1}. ${step.title}${step.failed ? '   <-- differs' : ''}`);
    lines.push(`#    model:  ${oneLine(step.model)}`);
    if (step.target !== undefined) lines.push(`#    target: ${oneLine(step.target)}`);
    for (const call of step.calls) {
      const curl = curlOf(call, files, `step${n + 1}`);
      if (call.creates?.length) {
        lines.push(`set -- $(${curl} | ids); ${call.creates.map((alias, i) => `${alias}=$${i + 1}`).join('; ')}`);
      } else if (call.poll) {
        lines.push(`while ${curl} | grep -qE '"status": *"processing"'; do sleep 0.2; done`);
      } else {
        lines.push(`${curl.replace(/^curl -sS/, 'curl -sS -i')}; echo`);
      }
    }
  });
  return lines.join('\n');
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' | ');
  return flat.length > 600 ? `${flat.slice(0, 600)}…` : flat;
}
