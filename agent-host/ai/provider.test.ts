import { strict as assert } from "node:assert";
import { redactCredentials } from "./provider";

describe("redactCredentials", () => {
  it("masks the API key and credential header values a provider's error echoes", () => {
    const text = "401 Incorrect API key provided: Bearer sk-secret-12345678; x-api-key: hdr-secret-999; version 2023-06-01";
    const masked = redactCredentials(text, { apiKey: "sk-secret-12345678", headers: { "x-api-key": "hdr-secret-999", "anthropic-version": "2023-06-01", Authorization: "Bearer tok-abcdefgh" } });
    assert.equal(masked, "401 Incorrect API key provided: Bearer ***; x-api-key: ***; version 2023-06-01");
  });

  it("leaves the text alone without credentials, and ignores values too short to be keys", () => {
    assert.equal(redactCredentials("500 overloaded", {}), "500 overloaded");
    assert.equal(redactCredentials("error 1234", { apiKey: "1234" }), "error 1234");
  });
});
