// The filesystem snapshot store's public surface; other modules import from here.
export { FsService, checkId, checkLabel, checkPrefer, MAX_LABEL_LENGTH, MAX_MESSAGE_BYTES, type CommitFile, type PushResult } from './fs-service.ts';
export { FsStore, type FsChange } from './fs-store.ts';
export { LabelsDb, type LabelHead, type ReflogEntry } from './labels-db.ts';
export type { MergeConflict, MergeResult } from './merge.ts';
export { openFs, openFsBlobs, S3_FS_PREFIX, type FsConfig, type OpenedFs } from './open-fs.ts';
