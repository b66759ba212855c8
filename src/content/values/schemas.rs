//! JSON Schemas of the values, for editors: the same rules as the values'
//! own checks, as far as a schema can say them (a date's day of the month,
//! or a phone number's area code, are left to the build).

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use super::{Date, Email, FocalPoint, FormId, Phone, Price, SiteUrl, Text, TimeOfDay, ZipCode};

macro_rules! string_schema {
    ($($ty:ident: $description:literal, $pattern:literal;)*) => {$(
        impl JsonSchema for $ty {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> Cow<'static, str> {
                stringify!($ty).into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!({
                    "type": "string",
                    "description": $description,
                    "pattern": $pattern,
                })
            }
        }
    )*};
}

string_schema! {
    Text: "Text; not empty. May use {placeholders}.", "\\S";
    Email: "An email address, like hello@example.com.", "^[^@\\s<>\"]+@[^@\\s.<>\"]+(\\.[^@\\s.<>\"]+)+$";
    Phone: "A US phone number with its area code, like \"(605) 555-0142\".", "^[ ()+.-]*(1[ ()+.-]*)?([0-9][ ()+.-]*){10}$";
    Date: "A date written year-month-day, like 2025-08-25.", "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
    TimeOfDay: "A 24-hour time of day in quotes, like \"18:00\" for 6 pm.", "^([01]?[0-9]|2[0-3]):[0-5][0-9]$";
    SiteUrl: "The full address the site is published at, like https://www.example.com.", "^https?://[^\\s?#\"<>]+$";
    FocalPoint: "The point kept in view where the layout shows part of the photo: words such as top, bottom left or center, or percentages across and down, like \"50% 30%\".", "^\\s*([A-Za-z]+(\\s+[A-Za-z]+)?|[0-9]{1,3}%\\s+[0-9]{1,3}%)\\s*$";
    FormId: "The letters and digits after /f/ in the form's address at Formspree.", "^[A-Za-z0-9]{1,64}$";
}

impl JsonSchema for Price {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Price".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "integer",
            "description": "A price in whole US dollars, without $.",
            "minimum": 1,
            "maximum": 1_000_000,
        })
    }
}

impl JsonSchema for ZipCode {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "ZipCode".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A five-digit ZIP code, best in quotes: \"57006\".",
            "anyOf": [
                { "type": "string", "pattern": "^[0-9]{5}$" },
                { "type": "integer", "minimum": 10000, "maximum": 99999 },
            ],
        })
    }
}
