import type { ComponentChildren } from 'preact';
import { texts } from './texts';

/** A row of a list: its cells in the columns' order, and the actions on its item, at the row's end. */
export type TableRow = { key: string; cells: ComponentChildren[]; actions?: ComponentChildren };

/**
 * A list of items as a table, one row per item, its actions in the last column (the settings screens of HubSpot,
 * Twenty, Linear; the GOV.UK Design System's table). The caption names the table for assistive technology, the
 * screen's heading already naming it on screen; each cell carries its column's name, which a phone-width screen shows
 * beside it when the rows are laid out one under the other (styles.css).
 */
export function Table({ caption, columns, rows }: { caption: string; columns: string[]; rows: TableRow[] }) {
  const withActions = rows.some((row) => row.actions !== undefined);
  return (
    <table>
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
          {withActions && (
            <th scope="col">
              <span class="visually-hidden">{texts.table.actions}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            {row.cells.map((cell, index) => (
              <td key={columns[index]} data-label={columns[index]}>
                {cell}
              </td>
            ))}
            {withActions && <td class="row-actions">{row.actions}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
