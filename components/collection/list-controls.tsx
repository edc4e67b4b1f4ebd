import Link from "next/link";
import { backwardRanges, filterParam, filtersInUse, type ListState } from "@/lib/search-params";
import type { CollectionConfig, FilterConfig } from "@/lib/site-config";
import { ListForm } from "./list-form";

const inputClass =
  "w-full rounded-md border border-stone-400 bg-white px-3 py-2 text-sm text-stone-900 " +
  "focus:border-pine-600 focus:outline-none focus:ring-2 focus:ring-pine-600/30";
const filtersSummaryClass =
  "flex cursor-pointer items-center justify-between gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold text-stone-800 hover:bg-sand-50";

function FilterInput({ filter, state }: { filter: FilterConfig; state: ListState }) {
  const current = state.filters.find((entry) => entry.field === filter.field);
  if (filter.kind === "any-of" || filter.kind === "choice") {
    const chosen = current?.kind === "values" ? current.values : [];
    return (
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-stone-800">{filter.label}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {filter.options.map((option) => (
            <label key={option} className="flex items-center gap-1.5 text-sm text-stone-700">
              <input
                type="checkbox"
                name={filterParam.values(filter.field)}
                value={option}
                defaultChecked={chosen.includes(option)}
                className="h-4 w-4 accent-pine-700"
              />
              {option}
            </label>
          ))}
        </div>
      </fieldset>
    );
  }
  if (filter.kind === "range") {
    const range = current?.kind === "range" ? current : undefined;
    const type = filter.type === "NUMBER" ? "number" : "date";
    // Counts and lengths start at 0; a date has no such floor ("0" is no date).
    const min = type === "number" ? 0 : undefined;
    return (
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-stone-800">{filter.label}</legend>
        <div className="grid grid-cols-2 gap-2">
          <label className="text-xs text-stone-600">
            From
            <input type={type} name={filterParam.from(filter.field)} defaultValue={range?.from ?? ""} min={min} className={inputClass} />
          </label>
          <label className="text-xs text-stone-600">
            To
            <input type={type} name={filterParam.to(filter.field)} defaultValue={range?.to ?? ""} min={min} className={inputClass} />
          </label>
        </div>
      </fieldset>
    );
  }
  const value = current?.kind === "yes-no" ? (current.value ? "yes" : "no") : "";
  return (
    <label className="block text-sm font-semibold text-stone-800">
      {filter.label}
      <select name={filterParam.values(filter.field)} defaultValue={value} className={`${inputClass} mt-2 font-normal`}>
        <option value="">Any</option>
        <option value="yes">Yes</option>
        <option value="no">No</option>
      </select>
    </label>
  );
}

/**
 * Search, filters, sort and page size as one GET form: the URL holds the whole state. Below it,
 * what is in use, each with a way to drop it.
 */
export function ListControls({ collection, state, href }: { collection: CollectionConfig; state: ListState; href: string }) {
  const inUse = filtersInUse(collection, state);
  const backward = backwardRanges(collection, state);
  return (
    <ListForm
      action={`/${collection.route}`}
      key={href}
      className="mb-8 space-y-5 rounded-xl border border-stone-200 bg-white p-5 shadow-sm"
      label={`Search ${collection.plural}`}
    >
      <div className="grid grid-cols-2 gap-3 sm:flex sm:items-end">
        <label className="col-span-2 block flex-1 text-sm font-semibold text-stone-800">
          Search
          <input
            type="search"
            name="q"
            defaultValue={state.query}
            maxLength={100}
            placeholder={`Search ${collection.plural}`}
            className={`${inputClass} mt-2 font-normal`}
          />
        </label>
        {collection.sorts.length > 1 && (
          // On a phone the sort has a line of its own: beside the page size its words were cut short.
          <label className="col-span-2 block text-sm font-semibold text-stone-800 sm:col-span-1">
            Sort
            <select name="sort" defaultValue={state.sort.id} className={`${inputClass} mt-2 font-normal`}>
              {collection.sorts.map((sort) => (
                <option key={sort.id} value={sort.id}>
                  {sort.label}
                </option>
              ))}
            </select>
          </label>
        )}
        {collection.pageSizes.length > 1 && (
          <label className="block text-sm font-semibold text-stone-800">
            Per page
            <select name="size" defaultValue={String(state.pageSize)} className={`${inputClass} mt-2 font-normal`}>
              {collection.pageSizes.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {collection.filters.length > 0 && (
        // Closed until a filter is in use, so on a phone the results are not a screen away.
        <details open={state.filters.length > 0} className="group rounded-lg border border-stone-200">
          <summary className={filtersSummaryClass}>
            <span>
              Filters
              {state.filters.length > 0 && (
                <span className="ml-2 rounded-full bg-pine-700 px-2 py-0.5 text-xs font-medium text-white">{state.filters.length} in use</span>
              )}
            </span>
            <span aria-hidden className="text-stone-600 transition group-open:rotate-180">
              ▾
            </span>
          </summary>
          <div className="grid gap-5 border-t border-stone-200 p-4 sm:grid-cols-2 lg:grid-cols-4">
            {collection.filters.map((filter) => (
              <FilterInput key={`${filter.kind}-${filter.field}`} filter={filter} state={state} />
            ))}
          </div>
        </details>
      )}
      {backward.map((label) => (
        <p key={label} className="text-sm font-medium text-red-800">
          {label}: the range ends before it starts, so nothing can match. Put the smaller value first.
        </p>
      ))}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
        <button type="submit" className="rounded-lg bg-pine-700 px-4 py-2 text-sm font-medium text-white hover:bg-pine-600">
          Show results
        </button>
        {inUse.length > 0 && (
          <ul aria-label="In use" className="flex flex-wrap gap-2">
            {inUse.map((filter) => (
              <li key={filter.label}>
                <Link
                  href={filter.removeHref}
                  scroll={false}
                  aria-label={`Remove ${filter.label}`}
                  className="inline-flex items-center gap-1.5 rounded-full border border-pine-600 bg-pine-50 px-3 py-1 text-sm text-pine-900 hover:bg-pine-100"
                >
                  {filter.label}
                  <span aria-hidden>×</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {inUse.length > 1 && (
          <Link href={`/${collection.route}`} scroll={false} className="text-sm font-medium text-pine-700 underline-offset-2 hover:underline">
            Clear search and filters
          </Link>
        )}
      </div>
    </ListForm>
  );
}
