// A form for one game's house rules, built from the field list of /api/variants.
import { tr, type Lang } from "./i18n";
import { ruleLink, type OptionField } from "./variants";

export function fieldLabel(lang: Lang, f: OptionField): string {
  if (f.label) return lang === "en" ? f.label.en : f.label.zh;
  return f.name;
}

export function OptionsForm(props: {
  lang: Lang;
  variant: string;
  ruleBook?: string | null;
  fields: OptionField[];
  values: Record<string, unknown>;
  onChange: (name: string, value: unknown) => void;
  skip?: string[];
  testid?: string;
}) {
  const { lang, fields, values } = props;
  const shown = fields.filter((f) => !(props.skip ?? []).includes(f.name));
  if (!shown.length) return null;
  // the 混儿 option set (rule ids H…, hun.md): the switch first, its options once it is on
  const hunSet = shown.filter((f) => f.rule && /^H/.test(f.rule));
  const plain = shown.filter((f) => !hunSet.includes(f));
  const hunSwitch = hunSet.find((f) => f.name === "hun");
  const hunOn = hunSwitch ? !!(hunSwitch.name in values ? values[hunSwitch.name] : hunSwitch.default) : true;
  const one = (f: OptionField) => {
    const value = f.name in values ? values[f.name] : f.default;
    const id = `opt-${props.variant}-${f.name}`;
    const text = fieldLabel(lang, f);
    const rule = f.rule ? (
      props.ruleBook ? (
        <a class="rule-id" href={ruleLink(props.ruleBook, f.rule)!} target="_blank" rel="noopener" title={tr(lang, "lobby.rulebook")} data-testid={`rule-${f.name}`}>
          {f.rule}
        </a>
      ) : (
        <span class="rule-id" title={tr(lang, "lobby.rulebook")}>
          {f.rule}
        </span>
      )
    ) : null;
    if (f.type === "bool") {
      return (
        <label class="opt" for={id}>
          <input id={id} type="checkbox" data-testid={`option-${f.name}`} checked={!!value} onChange={(e) => props.onChange(f.name, (e.target as HTMLInputElement).checked)} />
          {text} {rule}
        </label>
      );
    }
    if (f.choices) {
      return (
        <label class="opt" for={id}>
          {text} {rule}
          <select
            id={id}
            data-testid={`option-${f.name}`}
            value={String(value ?? "")}
            onChange={(e) => {
              // the choice itself (a number stays a number)
              const raw = (e.target as HTMLSelectElement).value;
              props.onChange(f.name, f.choices!.find((c) => String(c) === raw) ?? raw);
            }}
          >
            {f.choices.map((c) => (
              <option value={String(c)}>{String(c)}</option>
            ))}
          </select>
        </label>
      );
    }
    const numeric = f.type === "int" || f.type === "float";
    return (
      <label class="opt" for={id}>
        {text} {rule}
        <input
          id={id}
          data-testid={`option-${f.name}`}
          type={(numeric ? "number" : "text") as "number"}
          min={f.min ?? undefined}
          max={f.max ?? undefined}
          step={f.type === "float" ? "any" : undefined}
          placeholder={f.optional ? tr(lang, "lobby.unset") : undefined}
          value={value === null || value === undefined ? "" : String(value)}
          onInput={(e) => {
            // every keystroke, so that a create pressed straight after typing sends it
            const raw = (e.target as HTMLInputElement).value;
            if (!numeric) props.onChange(f.name, raw);
            else if (raw.trim() === "") props.onChange(f.name, f.optional ? null : f.default);
            else props.onChange(f.name, Number.isFinite(Number(raw)) ? Number(raw) : raw);
          }}
        />
      </label>
    );
  };
  return (
    <div class="options-form" data-testid={props.testid ?? "options-form"}>
      {plain.map(one)}
      {hunSet.length ? (
        <fieldset class="option-set" data-testid="hun-options">
          <legend>{tr(lang, "lobby.hunset")}</legend>
          {hunSwitch ? one(hunSwitch) : null}
          {hunOn ? hunSet.filter((f) => f !== hunSwitch).map(one) : null}
        </fieldset>
      ) : null}
    </div>
  );
}
