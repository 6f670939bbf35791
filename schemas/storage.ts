/**
 * Storage destinations (customer S3-compatible buckets): POST /v1/storage/destinations, its
 * view, and the `storage` option of async captures and batches.
 */
import { z } from "zod";
import { LIMITS } from "./limits";
import { maxChars, NOT_EMPTY } from "./primitives";

export const BUCKET_ACLS = ["private", "public-read"] as const;

/** S3 bucket names (3–63 lowercase letters, digits, dots, hyphens), as every provider accepts. */
const bucketName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "Must be a valid S3 bucket name.");

/** Object-key characters S3 documents as safe, plus the template's braces. */
const KEY_CHARS = /^[A-Za-z0-9!_.*'()\/{}-]*$/;
const keyText = (max: number) =>
  maxChars(max)
    .regex(KEY_CHARS, "Only letters, digits and ! _ . * ' ( ) / - are allowed.")
    .refine((s) => !s.split("/").includes(".."), "Must not contain a .. segment.");

export const destinationRequestSchema = z
  .strictObject({
    name: maxChars(LIMITS.destinationNameChars).min(1, NOT_EMPTY),
    endpoint: z.string().min(1, NOT_EMPTY).max(LIMITS.webhookUrlChars),
    region: z
      .string()
      .regex(/^[a-z0-9-]{1,32}$/, "Must be a region name such as auto or us-east-1.")
      .default("auto"),
    bucket: bucketName,
    accessKeyId: z.string().regex(/^[\x21-\x7e]{4,128}$/, "Must be 4-128 printable characters."),
    secretAccessKey: z
      .string()
      .regex(/^[\x21-\x7e]{1,256}$/, "Must be 1-256 printable characters."),
    pathStyle: z.boolean().default(false),
    prefix: keyText(LIMITS.destinationPrefixChars).optional(),
    acl: z.enum(BUCKET_ACLS).optional(),
    storageClass: z
      .string()
      .regex(/^[A-Z_]{1,32}$/, "Must be a storage class such as STANDARD.")
      .optional(),
    /** Results go to the bucket only: no copy in our R2, and a job's `resultUrl` is the bucket object's URL. */
    deliverOnly: z.boolean().default(false),
  })
  .meta({ id: "DestinationRequest" });
export type DestinationRequest = z.output<typeof destinationRequestSchema>;

/** `storage` on async captures and batches: where the result goes, and its key template. */
export const storageOptionSchema = z
  .strictObject({
    destinationId: z
      .string()
      .regex(/^dst_[A-Za-z0-9]{1,40}$/, "Must be a storage destination id (dst_…)."),
    key: keyText(LIMITS.objectKeyBytes).min(1, NOT_EMPTY).optional(),
  })
  .meta({ id: "StorageOption" });
export type StorageOption = z.output<typeof storageOptionSchema>;

export const destinationSchema = z
  .object({
    destinationId: z.string(),
    name: z.string(),
    endpoint: z.string(),
    region: z.string(),
    bucket: z.string(),
    pathStyle: z.boolean(),
    prefix: z.string().nullable(),
    acl: z.enum(BUCKET_ACLS).nullable(),
    storageClass: z.string().nullable(),
    deliverOnly: z.boolean(),
    /** The access key id's last 4 characters, after an ellipsis; the secret is never returned. */
    accessKeyId: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: "Destination" });
export type DestinationView = z.output<typeof destinationSchema>;

/** Where a job's result went (job view, webhook body, batch listing). */
export const deliverySchema = z
  .object({
    destinationId: z.string(),
    bucket: z.string(),
    key: z.string(),
    url: z.string(),
    etag: z.string().nullable(),
  })
  .meta({ id: "Delivery" });
export type Delivery = z.output<typeof deliverySchema>;
