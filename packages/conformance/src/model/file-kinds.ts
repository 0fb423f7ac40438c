import { fixture, randomWord, textPdf } from '../inputs/sample-files.js';

/**
 * What the model uploads: a PDF whose text holds the sequence's own word, a PDF with other text, a
 * damaged PDF, a truncated PNG, and a text file no deployment accepts (the upload that fails).
 */
export type FileKind = 'word' | 'plain' | 'damaged' | 'truncated-png' | 'not-a-document';

/** The kinds an upload can carry; `not-a-document` makes the whole upload fail. */
export const FILE_KINDS: readonly FileKind[] = ['word', 'plain', 'damaged', 'truncated-png', 'not-a-document'];

/** What the contract lets a document of each kind become. */
export interface KindFacts {
  /** The content type detected from the bytes (undefined for a file the upload refuses). */
  contentType?: string;
  /** The statuses a run of this file may end in. */
  outcomes: ReadonlyArray<'completed' | 'failed'>;
  /** Words a completed run's text must contain. */
  words: (word: string) => string[];
  /** The part's declared type (what a client would send). */
  partType: string;
  extension: string;
}

export const KIND_FACTS: Record<FileKind, KindFacts> = {
  // A readable PDF ends completed with its text, or failed (a transient fault, a time limit).
  word: {
    contentType: 'application/pdf',
    outcomes: ['completed', 'failed'],
    words: (w) => [w],
    partType: 'application/pdf',
    extension: 'pdf',
  },
  plain: {
    contentType: 'application/pdf',
    outcomes: ['completed', 'failed'],
    words: () => ['plain', 'page'],
    partType: 'application/pdf',
    extension: 'pdf',
  },
  // "A file that cannot be read fails with unreadable_document": it never completes.
  damaged: { contentType: 'application/pdf', outcomes: ['failed'], words: () => [], partType: 'application/pdf', extension: 'pdf' },
  // Some decoders read what is there of a truncated image; its OCR finds nothing the model could name.
  'truncated-png': {
    contentType: 'image/png',
    outcomes: ['completed', 'failed'],
    words: () => [],
    partType: 'image/png',
    extension: 'png',
  },
  'not-a-document': { outcomes: [], words: () => [], partType: 'application/pdf', extension: 'pdf' },
};

/** The bytes of each kind for one sequence (its word is its own, so content searches count only it). */
export interface SequenceFiles {
  word: string;
  bytes: Record<FileKind, Uint8Array>;
}

const shared = {
  damaged: fixture('corrupt.pdf'),
  'truncated-png': fixture('truncated.png'),
  'not-a-document': fixture('not-a-document.txt'),
};

const plain = textPdf(['docproc conformance model', 'plain page']);

/** Makes the files of one sequence: a PDF with a fresh word, and the shared others. */
export function sequenceFiles(): SequenceFiles {
  const word = randomWord(14);
  return { word, bytes: { word: textPdf(['docproc conformance model', `word ${word}`]), plain, ...shared } };
}
