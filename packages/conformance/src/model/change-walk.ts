import { type Cmd, DocumentCommand, ListCommand, type ListRanges, SettleCommand, UploadCommand } from './commands.js';
import type { Status } from './state.js';

// The sequence the model plays first, before its random ones: every list view read after every kind of
// change a client can cause, so that a view answered again is judged against what changed since it was
// last answered (a list the target kept from before a change, or filed under the wrong status, shows
// here). Random sequences reach such a pair only by chance: two reads of one view with one change between.

/**
 * The list views the walk reads, all scoped to the sequence's own documents: no filter, each status, a
 * filename and a content search, and paging by the least limit from the first page to past the last.
 */
export function walkViews(statuses: readonly string[], ranges: ListRanges): ListCommand[] {
  const first = ranges.page.min ?? 1;
  const least = ranges.limit.min ?? 1;
  return [
    new ListCommand(0, 0, 'default', null, 'token', 0),
    ...statuses.map((s) => new ListCommand(0, first, 'default', s as Status, 'token', 0)),
    new ListCommand(0, first, 'default', null, 'name', 0),
    new ListCommand(0, first, 'default', null, 'word', 0),
    // With the walk's two to five documents, the least limit pages through the first, a middle, the last and past it.
    ...[first, first + 1, first + 2, first + 5].map((page) => new ListCommand(0, page, least, null, 'token-upper', 0)),
  ];
}

/**
 * Each kind of change, then every view: an upload of two files (one that completes, one that fails) under a
 * key; their runs ending; a retry of the failed one; a replay of the first upload (no change); a refused
 * upload (no change); the retried run ending; an upload of several files without a key.
 * @example fc.asyncModelRun(setup, changeWalk(facts.statuses, ranges))
 */
export function changeWalk(statuses: readonly string[], ranges: ListRanges): Cmd[] {
  const views = () => walkViews(statuses, ranges);
  const changes: Cmd[] = [
    new UploadCommand(0, ['word', 'damaged'], false, 0, null),
    new SettleCommand('all'),
    // The damaged file is the second document of the sequence: it failed, so the retry is accepted.
    new DocumentCommand('retry', 0, 1),
    new UploadCommand(0, [], false, null, 0),
    new UploadCommand(0, ['word'], true, null, null),
    new SettleCommand('all'),
    new UploadCommand(0, ['plain', 'word', 'damaged'], false, null, null),
  ];
  return changes.flatMap((change) => [change, ...views()]);
}
