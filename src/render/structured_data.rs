//! schema.org structured data, built from the same content as the pages: a
//! LocalBusiness offering both plans, and a FAQPage.

use serde_json::{Value, json};

use crate::content::values::TimeOfDay;
use crate::content::{Plan, Site, markdown};

/// `image`: the share card's absolute URL, also the business's picture and logo.
pub fn local_business(site: &Site, image: Option<&str>) -> Value {
    let business = &site.business;
    // UN/CEFACT unit codes, as schema.org's unitCode expects.
    let offer = |plan: &Plan, unit_code: &str| {
        json!({
            "@type": "Offer",
            "name": format!("{} plan", plan.name.as_str()),
            "price": plan.price.0.to_string(),
            "priceCurrency": "USD",
            "priceSpecification": {
                "@type": "UnitPriceSpecification",
                "price": plan.price.0.to_string(),
                "priceCurrency": "USD",
                "unitCode": unit_code,
            },
            "itemOffered": {
                "@type": "Service",
                "name": format!("Bin-to-curb service, {} plan", plan.name.as_str().to_lowercase()),
                "areaServed": business.service_area.description.as_str(),
            },
        })
    };
    let mut area: Vec<Value> = vec![json!({
        "@type": "Place",
        "name": business.service_area.description.as_str(),
    })];
    area.extend(business.service_area.zip_codes.iter().map(|zip| {
        json!({
            "@type": "Place",
            "address": {
                "@type": "PostalAddress",
                "postalCode": zip.as_str(),
                "addressRegion": business.region.as_str(),
                "addressCountry": "US",
            },
        })
    }));
    let mut address = json!({
        "@type": "PostalAddress",
        "addressLocality": business.city.as_str(),
        "addressRegion": business.region.as_str(),
        "postalCode": business.postal_code.as_str(),
        "addressCountry": "US",
    });
    if let Some(street) = &business.street_address {
        address["streetAddress"] = json!(street.as_str());
    }
    let mut data = json!({
        "@context": "https://schema.org",
        "@type": "LocalBusiness",
        "@id": format!("{}/#business", business.url.as_str()),
        "name": business.name.as_str(),
        "description": business.description.as_str(),
        "url": format!("{}/", business.url.as_str()),
        "telephone": business.phone.tel,
        "email": business.email.as_str(),
        "address": address,
        "areaServed": area,
        "priceRange": format!("{}–{}", site.plans.monthly.price, site.plans.annual.price),
        "makesOffer": [offer(&site.plans.monthly, "MON"), offer(&site.plans.annual, "ANN")],
    });
    if let Some(image) = image {
        data["image"] = json!(image);
        data["logo"] = json!(image);
    }
    // Left out, not empty, when the owner gives none.
    if let Some(geo) = business.geo {
        data["geo"] = json!({
            "@type": "GeoCoordinates",
            "latitude": geo.latitude,
            "longitude": geo.longitude,
        });
    }
    if let Some(hours) = &business.opening_hours {
        let time = |t: TimeOfDay| format!("{:02}:{:02}", t.hour, t.minute);
        data["openingHoursSpecification"] = hours
            .iter()
            .map(|entry| {
                json!({
                    "@type": "OpeningHoursSpecification",
                    "dayOfWeek": entry.days.iter().map(|day| format!("https://schema.org/{day:?}")).collect::<Vec<_>>(),
                    "opens": time(entry.opens),
                    "closes": time(entry.closes),
                })
            })
            .collect();
    }
    data
}

pub fn faq_page(site: &Site) -> Value {
    let entries: Vec<Value> = site
        .faq
        .iter()
        .map(|entry| {
            json!({
                "@type": "Question",
                "name": entry.question.as_str(),
                "acceptedAnswer": {
                    "@type": "Answer",
                    "text": markdown::to_plain_text(entry.answer.as_str()),
                },
            })
        })
        .collect();
    json!({
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": entries,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::content::{self, Geo, OpeningHours, Weekday};

    fn real_site() -> Site {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
        let pictures = crate::media::Library::new(&dir, Path::new("content"), None);
        content::load(&dir, Path::new("content"), &pictures).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn optional_details_are_left_out_cleanly_when_absent() {
        let data = local_business(&real_site(), None);
        assert!(data["address"].get("streetAddress").is_none(), "{data}");
        assert!(data.get("geo").is_none(), "{data}");
        assert!(data.get("openingHoursSpecification").is_none(), "{data}");
        assert_eq!(data["address"]["addressLocality"], "Brookings");
    }

    #[test]
    fn optional_details_are_emitted_when_given() {
        let mut site = real_site();
        fn yaml<T: serde::de::DeserializeOwned>(text: &str) -> T {
            serde_yaml::from_str(text).unwrap_or_else(|e| panic!("{e}"))
        }
        site.business.street_address = Some(yaml("123 Main Ave"));
        site.business.geo = Some(Geo {
            latitude: 44.3114,
            longitude: -96.7984,
        });
        site.business.opening_hours = Some(vec![OpeningHours {
            days: vec![Weekday::Monday, Weekday::Friday],
            opens: yaml("\"08:00\""),
            closes: yaml("\"17:30\""),
        }]);
        let data = local_business(&site, None);
        assert_eq!(data["address"]["streetAddress"], "123 Main Ave");
        assert_eq!(
            data["geo"],
            json!({"@type": "GeoCoordinates", "latitude": 44.3114, "longitude": -96.7984})
        );
        assert_eq!(
            data["openingHoursSpecification"],
            json!([{
                "@type": "OpeningHoursSpecification",
                "dayOfWeek": ["https://schema.org/Monday", "https://schema.org/Friday"],
                "opens": "08:00",
                "closes": "17:30",
            }])
        );
    }
}
