/** @module htm bound to Preact's h: the dashboard's templates. */
import { h } from 'preact'
import htm from 'htm'

export const html = htm.bind(h)
