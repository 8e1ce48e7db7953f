import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../../lib/storage/client';
import { keys } from '../../lib/storage/table-items';

/**
 * Where the local run's identity provider is (docs/adr/0013-member-sign-in.md): written by `npm start`, read by the
 * command line.
 * `pool_file`: the file where it keeps its pool and the secrets it delivers (lib/identity/config.ts), absent from an
 * item written before it was kept.
 */
export type LocalIdentityProviderItem = {
  endpoint: string;
  user_pool_id: string;
  client_id: string;
  pool_file?: string;
};

/** Access pattern "where the local identity provider is": one GetItem of IDP#LOCAL / IDP. */
export async function getLocalIdentityProvider(store: Store): Promise<LocalIdentityProviderItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.localIdentityProvider(), ConsistentRead: true }),
  );
  return Item === undefined
    ? undefined
    : {
        endpoint: Item.endpoint,
        user_pool_id: Item.user_pool_id,
        client_id: Item.client_id,
        ...(typeof Item.pool_file === 'string' ? { pool_file: Item.pool_file } : {}),
      };
}

/** The provider of this start (its port changes from one start to the next): one PutItem. */
export async function putLocalIdentityProvider(store: Store, item: LocalIdentityProviderItem): Promise<void> {
  await store.db.send(
    new PutCommand({ TableName: store.tableName, Item: { ...keys.localIdentityProvider(), ...item } }),
  );
}
