import type { Bucket, BucketObject, BucketObjectsListResponse } from "@neon/sdk/raw";
import type { ObjectPage } from "../families/buckets";
import type { BucketObjectRecord, BucketRecord } from "../records";

// A branch's buckets and a bucket's listing, as the API shows them.

/** A bucket: its name, access level and when it was made (an ancestor's time when inherited). */
export function renderBucket(bucket: BucketRecord): Bucket {
  return {
    name: bucket.name,
    access_level: bucket.access_level,
    created_at: new Date(bucket.created_at_ms).toISOString(),
  };
}

/** An object of a listing. */
export function renderObject(key: string, object: BucketObjectRecord): BucketObject {
  return {
    key,
    size: object.size,
    last_modified: new Date(object.last_modified_ms).toISOString(),
    etag: object.etag,
  };
}

/** A page of a listing; `next_cursor` (opaque: the page's last item) only when more follow. */
export function renderObjectPage(prefix: string, page: ObjectPage): BucketObjectsListResponse {
  return {
    folders: page.folders,
    objects: page.objects.map(([key, object]) => renderObject(key, object)),
    prefix,
    ...(page.next === undefined ? {} : { next_cursor: Buffer.from(page.next).toString("base64url") }),
    is_truncated: page.next !== undefined,
  };
}
