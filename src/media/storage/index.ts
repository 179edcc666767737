// Picks the storage backend named by configuration (HERALD_STORAGE=disk|s3).
import { DiskStorage, type DiskStorageConfig } from './disk.ts';
import { S3Storage, type S3StorageConfig } from './s3.ts';
import type { MediaStorage } from './types.ts';

export type StorageConfig = ({ driver: 'disk' } & DiskStorageConfig) | ({ driver: 's3' } & S3StorageConfig);

export function createMediaStorage(config: StorageConfig): MediaStorage {
  return config.driver === 'disk' ? new DiskStorage(config) : new S3Storage(config);
}

export { DiskStorage, type DiskStorageConfig } from './disk.ts';
export { S3Storage, type S3StorageConfig } from './s3.ts';
export { assertValidKey, isValidKey, keyToUrlPath, newObjectKey, sanitizeFilename, type ObjectKeyParts } from './keys.ts';
export * from './types.ts';
