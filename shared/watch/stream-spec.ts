/**
 * Whether a table's stream can feed the watch. It needs both images: a REMOVE carries only the old
 * image (which values the deleted account held), an email change needs the old value to re-check
 * it. Locksmith never enables or changes a stream itself: it says the exact command to run.
 */
import { err, ok, type Result } from '../result';

/** What DescribeTable says about the stream. */
export interface StreamSettings {
  readonly enabled: boolean;
  readonly viewType?: string;
  readonly streamArn?: string;
}

/** The command that turns on a stream with both images. */
export function enableStreamCommand(table: string): string {
  return `aws dynamodb update-table --table-name ${table} --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES`;
}

/** The stream ARN to read, or why the table's stream cannot be watched and what to run. */
export function watchableStream(table: string, settings: StreamSettings): Result<string> {
  const enable = enableStreamCommand(table);
  if (!settings.enabled || settings.streamArn === undefined) {
    return err(
      'validation',
      `table ${table} has no stream: watch reads DynamoDB Streams (new and old images). Locksmith does not enable it for you.`,
      { fix: enable },
    );
  }
  if (settings.viewType !== 'NEW_AND_OLD_IMAGES') {
    return err(
      'validation',
      `table ${table} streams ${settings.viewType ?? 'no'} images; watch needs NEW_AND_OLD_IMAGES (a REMOVE must say which values the deleted item held). ` +
        'A view type cannot be changed in place: disabling the stream first stops its current readers (Lambda triggers, replication).',
      { fix: `aws dynamodb update-table --table-name ${table} --stream-specification StreamEnabled=false && ${enable}` },
    );
  }
  return ok(settings.streamArn);
}
