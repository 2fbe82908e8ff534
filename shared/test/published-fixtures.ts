/**
 * A published table for the tests of the comparison with a paper and of the report's summary:
 * what those tests do not look at (id, title, preset, kind, ties) is fixed here, so each test writes
 * only the rows and the fields it checks.
 */
import type { PublishedRow, PublishedTable } from '../src/lab/index.js';

export const tableFixture = (rows: PublishedRow[], fields: Partial<PublishedTable> = {}): PublishedTable => ({
  id: 'test',
  title: 'a table',
  preset: 'none',
  kind: 'cells',
  ties: 'strict',
  ...fields,
  rows,
});
