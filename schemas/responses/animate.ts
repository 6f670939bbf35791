/** The answer of POST /v1/animate with `hosted: true` (and of the MCP tool record_page). */
import { z } from "zod";
import { ANIMATION_FORMATS } from "../animate";

export const hostedAnimationSchema = z
  .object({
    url: z.string().meta({ description: "Signed URL of the video or GIF." }),
    expiresAt: z.iso.datetime(),
    contentType: z.string(),
    format: z.enum(ANIMATION_FORMATS),
    width: z.number().int().meta({ description: "Frame width in device pixels." }),
    height: z.number().int().meta({ description: "Frame height in device pixels." }),
    frames: z.number().int(),
    durationMs: z.number().int(),
    bytesSize: z.number().int(),
    finalUrl: z.string(),
    loadTimeMs: z.number().int(),
  })
  .meta({ id: "HostedAnimation" });
export type HostedAnimationData = z.output<typeof hostedAnimationSchema>;
