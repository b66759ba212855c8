//! schema.org structured data, built from the same content as the pages: a
//! LocalBusiness offering both plans, and a FAQPage.

use serde_json::{Value, json};

use crate::content::{Plan, Site, markdown};

pub fn local_business(site: &Site) -> Value {
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
    json!({
        "@context": "https://schema.org",
        "@type": "LocalBusiness",
        "@id": format!("{}/#business", business.url.as_str()),
        "name": business.name.as_str(),
        "description": business.description.as_str(),
        "url": format!("{}/", business.url.as_str()),
        "telephone": business.phone.tel,
        "email": business.email.as_str(),
        "address": {
            "@type": "PostalAddress",
            "addressLocality": business.city.as_str(),
            "addressRegion": business.region.as_str(),
            "postalCode": business.postal_code.as_str(),
            "addressCountry": "US",
        },
        "areaServed": area,
        "priceRange": format!("{}–{}", site.plans.monthly.price, site.plans.annual.price),
        "makesOffer": [offer(&site.plans.monthly, "MON"), offer(&site.plans.annual, "ANN")],
    })
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
