/** The words for how an executed transaction ended, in the service and in the activity log. */

/**
 * How an executed transaction ended — one set from the service's outcome through the bridge, the
 * outcome panel and the activity log: applied, cancelled by DynamoDB (a condition failed), or
 * refused by Locksmith before sending (the value is held right now).
 */
export type OutcomeStatus = 'succeeded' | 'cancelled' | 'refused';

/**
 * How an executed transaction ended, as the activity log recorded it: sent and applied, cancelled
 * by DynamoDB, refused before sending (holders changed), failed (`error`: nothing was applied), or
 * `outcome-unknown` (the send failed after it may have reached DynamoDB); `unknown` for a line this
 * version did not write.
 */
export type ActivityStatus = OutcomeStatus | 'error' | 'outcome-unknown' | 'unknown';
