import { useState } from "preact/hooks";
import { Field, useSuggestions } from "../ui/fields";
import { codesOf } from "./request";

/**
 * Product groups picked from the existing ones: typing shows the matching groups (code and name,
 * looked up as it is typed), Enter or "Add" adds the code, and each chosen group is a button that
 * removes it. `value` stays the form's comma-separated codes.
 */
export function GroupPicker(props: {
  id: string;
  value: string;
  onValue: (codes: string) => void;
}) {
  const { id, value, onValue } = props;
  const [typed, setTyped] = useState("");
  const groups = useSuggestions("productGroup", typed);
  const chosen = codesOf(value);
  const add = () => {
    const code = typed.trim();
    if (code && !chosen.includes(code)) onValue([...chosen, code].join(", "));
    setTyped("");
  };
  return (
    <Field
      id={id}
      label="Product groups"
      hint="Type to find a group, Enter adds it; their subgroups too"
    >
      <div class="field-row">
        <input
          id={id}
          list={groups.listId}
          value={typed}
          autocomplete="off"
          spellcheck={false}
          aria-describedby={`${id}-hint ${id}-chosen`}
          onInput={(e) => setTyped(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" class="secondary" onClick={add} disabled={typed.trim() === ""}>
          Add group
        </button>
      </div>
      {groups.list}
      <ul class="chips" id={`${id}-chosen`} aria-label="Chosen groups">
        {chosen.length === 0 ? <li class="hint">None chosen</li> : null}
        {chosen.map((code) => (
          <li key={code}>
            <button
              type="button"
              class="secondary"
              aria-label={`Remove product group ${code}`}
              onClick={() => onValue(chosen.filter((c) => c !== code).join(", "))}
            >
              {code} ×
            </button>
          </li>
        ))}
      </ul>
    </Field>
  );
}
