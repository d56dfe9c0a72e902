/** The OneTable schema of the interop tests and the e2e spec (one place, so both judge the same layout). */

/** A OneTable schema: users with a table-wide unique email and a nickname unique within its org (`scope: '${orgId}'`). */
export const ONETABLE_ORG_SCHEMA = {
  format: 'onetable:1.1.0',
  version: '0.0.1',
  indexes: { primary: { hash: 'pk', sort: 'sk' } },
  models: {
    User: {
      pk: { type: String, value: 'User#${id}' },
      sk: { type: String, value: 'User#' },
      id: { type: String, required: true },
      orgId: { type: String, required: true },
      email: { type: String, required: true, unique: true },
      nickname: { type: String, unique: true, scope: '${orgId}' },
    },
  },
  params: { timestamps: false },
} as const;
