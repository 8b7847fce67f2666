import { decodeQueueCursor, encodeQueueCursor } from './moderation-queue-cursor';
import { ModerationItem } from './moderation-queue-item.entity';
import { ReportStatus } from './reports.enums';
import { ErrorCode } from '../common/errors';

const ID = '01920000-0000-7000-8000-000000000f01';
const item = (resolvedAt: Date | null) =>
  Object.assign(new ModerationItem(), { id: ID, resolvedAt });

describe('the moderation queue cursors', () => {
  it('should carry an open item by its id, a resolved one by when and its id', () => {
    const at = new Date('2026-11-23T07:45:12.345Z');
    const open = encodeQueueCursor(item(null), ReportStatus.OPEN);
    const resolved = encodeQueueCursor(item(at), ReportStatus.RESOLVED);
    expect(decodeQueueCursor(open, ReportStatus.OPEN)).toEqual({ id: ID, resolvedAt: null });
    expect(decodeQueueCursor(resolved, ReportStatus.RESOLVED)).toEqual({ id: ID, resolvedAt: at });
  });

  it('should refuse a cursor of the other status, or of something else, on after', () => {
    const open = encodeQueueCursor(item(null), ReportStatus.OPEN);
    const resolved = encodeQueueCursor(item(new Date()), ReportStatus.RESOLVED);
    const post = Buffer.from(`post:${ID}`).toString('base64url');
    for (const [cursor, status] of [
      [open, ReportStatus.RESOLVED],
      [resolved, ReportStatus.OPEN],
      [post, ReportStatus.OPEN],
      ['not base64!', ReportStatus.OPEN],
    ] as const) {
      expect(() => decodeQueueCursor(cursor, status)).toThrow(
        expect.objectContaining({
          extensions: { code: ErrorCode.BadUserInput, field: 'after' },
        }),
      );
    }
  });
});
