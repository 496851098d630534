/**
 * A session/prompt's content blocks as the host's prompt: text, resource links (named for the
 * model, read with its tools), embedded resources (their text in the prompt, marked with their
 * URI), images (as image content). What the capabilities do not offer (audio, binary resources)
 * is named in the text rather than dropped silently.
 */
import type { ContentBlock } from "./sdk";
import type { ImageContent } from "../../shared/protocol";

export interface HostPrompt {
  text: string;
  images: ImageContent[];
}

/** URIs and names come from the client: kept on one line each, so they cannot open a block of their own. */
const oneLine = (value: string): string => value.replace(/[\r\n]+/g, " ");

export function hostPrompt(blocks: readonly ContentBlock[]): HostPrompt {
  const parts: string[] = [];
  const images: ImageContent[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "image":
        images.push({ type: "image", data: block.data, mimeType: block.mimeType });
        break;
      case "resource_link":
        parts.push(`[${oneLine(block.title ?? block.name)}](${oneLine(block.uri)})`);
        break;
      case "resource": {
        const resource = block.resource;
        if ("text" in resource) parts.push(`<resource uri="${oneLine(resource.uri).replace(/"/g, "%22")}">\n${resource.text.replace(/<\/resource>/g, "<\\/resource>")}\n</resource>`);
        else parts.push(`(a binary resource was attached and not read: ${oneLine(resource.uri)})`);
        break;
      }
      case "audio":
        parts.push("(an audio clip was attached; this agent does not take audio)");
        break;
    }
  }
  return { text: parts.join("\n\n"), images };
}
