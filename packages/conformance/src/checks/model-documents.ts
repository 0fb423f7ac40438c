import { type Finding, fail } from '../definitions/check.js';
import { show } from '../definitions/describe.js';
import { judgeKnownState, type KnownStateObservation } from './model-known-state.js';
import type { DocumentName } from './model-times.js';
import { judgeOnePerPart, judgeUpload, type OnePerPart, type UploadObservation } from './model-uploads.js';

// The judge of `model.documents`: what the stateful model expects of an upload, a read or a retry (computed
// from every earlier answer of the sequence, model/judge-*.ts), beside what the target answered.

/** The status of a read (`read`: a 200) or of a retry of a document whose run may go on (`retry`: 202 or 409 document_busy). */
export interface StatusObservation {
  kind: 'read' | 'retry';
  alias: string;
  status: number;
  code: unknown;
}

/** A read or retry of the other tenant's document: a 200 must at least be that document (else it is a wrong answer). */
export interface OtherTenants {
  kind: 'other-tenant';
  doc: DocumentName;
  status: number;
  shown: { id: unknown; filename: unknown };
}

/** Fields of a document whose values the model knows, as the answer has them (`label` names the document). */
export interface FieldsObservation {
  kind: 'fields';
  label?: string;
  /** Whether the expected text is labelled too (an upload's part). */
  labelExpected?: boolean;
  want: Record<string, unknown>;
  have: Record<string, unknown>;
}

/** A completed document's text: the words the suite put in the file (and not the sequence's word when the file lacks it). */
export interface TextObservation {
  kind: 'text';
  name: string;
  content: string;
  words: readonly string[];
  /** The sequence's word, which only its `word` files hold. */
  word: string;
  lacksWord: boolean;
}

/** What stays as it was read while nothing happens to a finished document: its text, or its error's code. */
export type KeptObservation =
  | { kind: 'same-text'; name: string; content: string; before: string | null }
  | { kind: 'same-error'; name: string; error: unknown; before: string };

export type DocumentObservation =
  | StatusObservation
  | OtherTenants
  | FieldsObservation
  | TextObservation
  | KeptObservation
  | KnownStateObservation
  | UploadObservation
  | OnePerPart;

const lower = (s: string) => s.toLowerCase();

/**
 * The judge of `model.documents`.
 * @example judgeModelDocument({ kind: 'read', alias: 'D1', status: 200, code: undefined })
 */
export function judgeModelDocument(o: DocumentObservation): Finding | undefined {
  switch (o.kind) {
    case 'read':
      return o.status === 200 ? undefined : fail(`${o.status} ${show(o.code ?? '')}`, `200: ${o.alias} belongs to this key`);
    case 'retry':
      return o.status === 202 || (o.status === 409 && o.code === 'document_busy')
        ? undefined
        : fail(`${o.status} ${show(o.code ?? '')}`, `409 document_busy while ${o.alias}'s run goes on, or 202 if it has just ended`);
    case 'other-tenant':
      return o.status !== 200 || o.shown.id === undefined || o.shown.id === o.doc.id
        ? undefined
        : fail(
            `${o.status}: document ${o.shown.id} (${show(o.shown.filename)})`,
            `404 not_found: ${o.doc.alias} (document ${o.doc.id}) belongs to the other key, and no other document was asked for`,
          );
    case 'fields':
      return JSON.stringify(o.have) === JSON.stringify(o.want)
        ? undefined
        : fail(
            o.label ? `${o.label}: ${show(o.have)}` : show(o.have),
            o.label && o.labelExpected ? `${o.label}: ${show(o.want)}` : show(o.want),
          );
    case 'text': {
      const text = lower(o.content);
      const holds = o.words.every((w) => text.includes(lower(w))) && (!o.lacksWord || !text.includes(lower(o.word)));
      return holds
        ? undefined
        : fail(
            `${o.name} content ${show(o.content, 200)}`,
            o.words.length ? `text containing ${show(o.words)}` : `text without ${show(o.word)} (not in this file)`,
          );
    }
    case 'same-text':
      return o.content === o.before
        ? undefined
        : fail(`${o.name} content ${show(o.content, 200)}`, `the text read before: ${show(o.before, 200)}`);
    case 'same-error':
      return (o.error as { code?: unknown } | null | undefined)?.code === o.before
        ? undefined
        : fail(`${o.name} error ${show(o.error)}`, `error.code ${show(o.before)} as read before`);
    case 'retry-finished':
    case 'status-shown':
      return judgeKnownState(o);
    case 'one-per-part':
      return judgeOnePerPart(o);
    default:
      return judgeUpload(o);
  }
}
