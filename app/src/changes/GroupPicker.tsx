import { useState } from "preact/hooks";
import { Field, useSuggestions } from "../ui/fields";
import { codesOf } from "./request";

type Picked = "productGroup" | "brand";

const WORDS: Record<
  Picked,
  { label: string; hint: string; add: string; chosen: string; noun: string }
> = {
  productGroup: {
    label: "Product groups",
    hint: "Type to find a group, Enter adds it; their subgroups too",
    add: "Add group",
    chosen: "Chosen groups",
    noun: "product group",
  },
  brand: {
    label: "Brands",
    hint: "Type to find a brand, Enter adds it; every product of the brand",
    add: "Add brand",
    chosen: "Chosen brands",
    noun: "brand",
  },
};

/**
 * Product groups (or brands) picked from the existing ones: typing shows the matching groups (code and name,
 * looked up as it is typed), Enter or "Add" adds the code, and each chosen group is a button that
 * removes it. `value` stays the form's comma-separated codes.
 */
export function GroupPicker(props: {
  id: string;
  value: string;
  onValue: (codes: string) => void;
  /** What is picked (docs/brands.md: a brand picks the same way); default product groups. */
  kind?: Picked;
}) {
  const { id, value, onValue } = props;
  const words = WORDS[props.kind ?? "productGroup"];
  const [typed, setTyped] = useState("");
  const groups = useSuggestions(props.kind ?? "productGroup", typed);
  const chosen = codesOf(value);
  const add = () => {
    const code = typed.trim();
    if (code && !chosen.includes(code)) onValue([...chosen, code].join(", "));
    setTyped("");
  };
  return (
    <Field id={id} label={words.label} hint={words.hint}>
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
          {words.add}
        </button>
      </div>
      {groups.list}
      <ul class="chips" id={`${id}-chosen`} aria-label={words.chosen}>
        {chosen.length === 0 ? <li class="hint">None chosen</li> : null}
        {chosen.map((code) => (
          <li key={code}>
            <button
              type="button"
              class="secondary"
              aria-label={`Remove ${words.noun} ${code}`}
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
