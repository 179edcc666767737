// Picks the storage backend named by configuration (HERALD_STORAGE=disk|s3).
import { requireFeature } from '../../optional-packages.ts';
import { DiskStorage, type DiskStorageConfig } from './disk.ts';
import type { S3StorageConfig } from './s3.ts';
import type { MediaStorage } from './types.ts';

export type StorageConfig = ({ driver: 'disk' } & DiskStorageConfig) | ({ driver: 's3' } & S3StorageConfig);

/**
 * The S3 client (~50 MB of SDK) is loaded only when S3 storage is configured; it is not part of the server install
 * (src/optional-packages.ts), so S3 storage without it stops here, naming the packages to add.
 */
export async function createMediaStorage(config: StorageConfig): Promise<MediaStorage> {
  if (config.driver === 'disk') return new DiskStorage(config);
  requireFeature('s3');
  const { S3Storage } = await import('./s3.ts');
  return new S3Storage(config);
}

export { DiskStorage, type DiskStorageConfig } from './disk.ts';
export type { S3StorageConfig } from './s3.ts';
export {
  assertValidKey,
  isValidKey,
  keyToUrlPath,
  newObjectKey,
  sanitizeFilename,
  type ObjectKeyParts,
} from './keys.ts';
export * from './types.ts';
