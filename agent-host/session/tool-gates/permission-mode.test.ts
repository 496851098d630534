import { strict as assert } from "node:assert";
import { permissionModes } from "../../../shared/protocol";
import { modeChangeNote } from "./permission-mode";

describe("permission mode: what the model is told of a change", () => {
  it("tells it of plan mode, and of leaving it", () => {
    assert.match(modeChangeNote("ask", "plan") ?? "", /switched to plan mode/);
    for (const to of permissionModes.filter((m) => m !== "plan")) assert.match(modeChangeNote("plan", to) ?? "", /left plan mode/);
    assert.equal(modeChangeNote("ask", "acceptEdits"), undefined, "changes outside plan mode do not matter to the model");
  });

  // Found in the #32 trial: cycling Alt+M through Plan told the model "the user approved the plan:
  // carry it out". Approval is the user's own message (Approve plan sends one); a mode change is not.
  it("never says the plan was approved when the user only left plan mode", () => {
    for (const to of permissionModes.filter((m) => m !== "plan")) {
      const note = modeChangeNote("plan", to) ?? "";
      assert.doesNotMatch(note, /approved the plan|carry it out/i);
      assert.match(note, /does not approve the plan/);
    }
  });
});
